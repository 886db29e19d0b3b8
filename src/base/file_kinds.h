/* file_kinds: the first bytes of kpath's own kinds of file, by which they are
 * told apart from each other and from grammars and samples.  A results file
 * (src/run/results.c) is JSON Lines whose first line is its header object; a
 * workspace (src/workspace/workspace_file.c) is a text file whose first word is its kind. */
#ifndef KPATH_FILE_KINDS_H
#define KPATH_FILE_KINDS_H

#define RESULTS_FIRST_BYTES "{\"kpath_results\""
#define WORKSPACE_FIRST_BYTES "kpath-workspace "

#endif
