gen -k 3
