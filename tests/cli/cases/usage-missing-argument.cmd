paths -k
