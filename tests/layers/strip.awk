# C source without comments and literals: a call named in a comment or a
# message is no call.  String literals become "", character literals 0.
# Shared by the layer checks: run.sh prints each stripped line (-v stripped_only=1);
# tree.sh calls strip() itself.  Comments may span lines: the state is kept
# in `incomment` (reset it at each new file).
stripped_only { print strip($0) }
function strip(line,    out, c, two, i, j) {
  out = ""
  while (length(line)) {
    if (incomment) {
      i = index(line, "*/"); if (!i) { line = ""; break }
      line = substr(line, i + 2); incomment = 0; continue }
    c = substr(line, 1, 1); two = substr(line, 1, 2)
    if (two == "/*") { incomment = 1; line = substr(line, 3); continue }
    if (two == "//") break
    if (c == "\"") {
      j = 2
      while (j <= length(line) && substr(line, j, 1) != "\"") j += (substr(line, j, 1) == "\\") ? 2 : 1
      out = out "\"\""; line = substr(line, j + 1); continue }
    if (c == "\047") {
      j = 2
      while (j <= length(line) && substr(line, j, 1) != "\047") j += (substr(line, j, 1) == "\\") ? 2 : 1
      out = out "0"; line = substr(line, j + 1); continue }
    out = out c; line = substr(line, 2) }
  return out
}
