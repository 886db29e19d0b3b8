parse - -
