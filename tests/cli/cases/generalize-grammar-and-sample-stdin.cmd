generalize - - -- true
