coverage - -
