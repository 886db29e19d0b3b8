check-oracle -k 1 - - -- true
