#!/bin/sh
# gen_unicode_tables.sh: writes src/base/unicode_tables.inc, the code point
# ranges of the Unicode properties that ANTLR's \p{...} names (general
# categories, scripts, blocks, binary properties, Grapheme_Cluster_Break,
# EmojiPresentation), from the Unicode Character Database.
#
#   sh tools/gen_unicode_tables.sh [UCD_DIR] > src/base/unicode_tables.inc
#
# UCD_DIR defaults to /usr/share/unicode (Debian's package unicode-data).
# Only maintainers run this; the generated file is committed, so building
# kpath needs nothing of it.  POSIX sh, awk and sort.
set -eu
UCD=${1:-/usr/share/unicode}
for f in UnicodeData.txt Scripts.txt Blocks.txt PropList.txt DerivedCoreProperties.txt \
         PropertyAliases.txt PropertyValueAliases.txt emoji/emoji-data.txt \
         auxiliary/GraphemeBreakProperty.txt ReadMe.txt; do
    [ -r "$UCD/$f" ] || { echo "gen_unicode_tables.sh: $UCD/$f: not readable (apt-get install unicode-data)" >&2; exit 1; }
done
version=$(sed -n 's/^# Version \([0-9.]*\) of the Unicode Standard.*/\1/p' "$UCD/ReadMe.txt" | head -n 1)
[ -n "$version" ] || version=$(sed -n 's/^# DerivedCoreProperties-\([0-9.]*\)\.txt.*/\1/p' "$UCD/DerivedCoreProperties.txt" | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Pass 1: one line "key<TAB>lo<TAB>hi" per range of every file; keys are
# kind:name with the name loosely matched (lower case, no space, _ or -).
awk -v OFS='\t' '
function hex(s,   i, v) {
    v = 0; s = toupper(s)
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789ABCDEF", substr(s, i, 1)) - 1
    return v
}
function norm(s) { s = tolower(s); gsub(/[ _-]/, "", s); return s }
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
FNR == 1 {
    kind = "bin"
    if (FILENAME ~ /Scripts\.txt$/) kind = "sc"
    else if (FILENAME ~ /Blocks\.txt$/) kind = "blk"
    else if (FILENAME ~ /GraphemeBreakProperty\.txt$/) kind = "gcb"
}
FILENAME ~ /UnicodeData\.txt$/ {
    split($0, f, ";"); cp = hex(f[1]); g = f[3]
    if (f[2] ~ /, First>$/) { first = cp; next }
    lo = (f[2] ~ /, Last>$/) ? first : cp
    print "gc:" norm(g), lo, cp
    if (g !~ /^C/) print "gc:" norm(substr(g, 1, 1)), lo, cp   # C: with Cn, at the end
    if (g == "Lu" || g == "Ll" || g == "Lt") print "gc:lc", lo, cp
    print "bin:assigned", lo, cp
    next
}
{
    line = $0; sub(/#.*/, "", line)
    if (split(line, f, ";") != 2) next
    r = trim(f[1]); v = trim(f[2])
    if (index(r, "..")) { split(r, rr, "[.][.]"); lo = hex(rr[1]); hi = hex(rr[2]) }
    else lo = hi = hex(r)
    print kind ":" norm(v), lo, hi
}' "$UCD/UnicodeData.txt" "$UCD/Scripts.txt" "$UCD/Blocks.txt" "$UCD/PropList.txt" \
   "$UCD/DerivedCoreProperties.txt" "$UCD/emoji/emoji-data.txt" \
   "$UCD/auxiliary/GraphemeBreakProperty.txt" > "$tmp/raw"
LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n "$tmp/raw" > "$tmp/sorted"

# Pass 2: merge each key's ranges, derive the sets no file lists, add the
# aliases, and write the C tables.
awk -F '\t' -v version="$version" '
function norm(s) { s = tolower(s); gsub(/[ _-]/, "", s); return s }
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function add(k, l, h) {   # appends to k, merging with its last range
    if (!(k in cnt)) { cnt[k] = 0; keys[++nkeys] = k }
    if (cnt[k] && l < lo[k, cnt[k]]) { print "gen_unicode_tables.sh: " k ": ranges out of order" > "/dev/stderr"; bad = 1; exit 1 }
    if (cnt[k] && l <= hi[k, cnt[k]] + 1) { if (h > hi[k, cnt[k]]) hi[k, cnt[k]] = h; return }
    cnt[k]++; lo[k, cnt[k]] = l; hi[k, cnt[k]] = h
}
function complement(a, k,   i, next_lo) {
    next_lo = 0
    for (i = 1; i <= cnt[a]; i++) { if (lo[a, i] > next_lo) add(k, next_lo, lo[a, i] - 1); next_lo = hi[a, i] + 1 }
    if (next_lo <= 1114111) add(k, next_lo, 1114111)
    if (!(k in cnt)) { cnt[k] = 0; keys[++nkeys] = k }
}
function union(a, b, k,   i, j) {
    i = j = 1
    while (i <= cnt[a] || j <= cnt[b]) {
        if (j > cnt[b] || (i <= cnt[a] && lo[a, i] <= lo[b, j])) { add(k, lo[a, i], hi[a, i]); i++ }
        else { add(k, lo[b, j], hi[b, j]); j++ }
    }
}
function difference(a, b, k) { complement(a, "tmp:na"); union("tmp:na", b, "tmp:u"); complement("tmp:u", k) }
function alias(k, name) { if (k in cnt) { aliases[++naliases] = name; alias_of[naliases] = k } }
FILENAME ~ /sorted$/ { add($1, $2 + 0, $3 + 0); next }
FILENAME ~ /PropertyAliases\.txt$/ {       # binary property names
    line = $0; sub(/#.*/, "", line); n = split(line, f, ";")
    if (n < 2) next
    for (i = 1; i <= n; i++) if (("bin:" norm(trim(f[i]))) in cnt) { k = "bin:" norm(trim(f[i])); break }
    if (i > n) next
    for (i = 1; i <= n; i++) if (trim(f[i]) != "") alias(k, "bin:" norm(trim(f[i])))
    next
}
FILENAME ~ /PropertyValueAliases\.txt$/ {
    line = $0; sub(/#.*/, "", line); n = split(line, f, ";")
    if (n < 3) next
    p = tolower(trim(f[1]))
    if (p != "gc" && p != "sc" && p != "blk" && p != "gcb") next
    for (i = 2; i <= n; i++) if ((p ":" norm(trim(f[i]))) in cnt) { k = p ":" norm(trim(f[i])); break }
    if (i > n) next
    for (i = 2; i <= n; i++) if (trim(f[i]) != "") alias(k, p ":" norm(trim(f[i])))
    next
}
END {
    if (bad) exit 1
    complement("bin:assigned", "gc:cn")
    union("gc:cc", "gc:cf", "tmp:c1"); union("tmp:c1", "gc:cs", "tmp:c2"); union("tmp:c2", "gc:co", "tmp:c3")
    union("tmp:c3", "gc:cn", "gc:c")
    add("bin:any", 0, 1114111); add("bin:ascii", 0, 127)
    union("bin:emojipresentation", "tmp:none", "ep:emojidefault")
    difference("bin:emoji", "bin:emojipresentation", "ep:textdefault")
    complement("bin:emoji", "ep:text")
    alias("gc:lc", "gc:l&")
    printf "/* Generated by tools/gen_unicode_tables.sh from the Unicode Character\n"
    printf " * Database %s (Debian package unicode-data): do not edit.  Ranges are\n", version
    printf " * inclusive [lo, hi] pairs, sorted and disjoint per property. */\n"
    printf "#define UNICODE_TABLES_VERSION \"%s\"\n\n", version
    printf "static const uint32_t unicode_ranges[] = {\n"
    total = 0
    for (x = 1; x <= nkeys; x++) {
        k = keys[x]
        if (k ~ /^tmp:/) continue
        first[k] = total
        for (i = 1; i <= cnt[k]; i++) {
            printf "%s0x%X,0x%X,", (total % 6 == 0 ? (total ? "\n" : "") : " "), lo[k, i], hi[k, i]
            total++
        }
    }
    printf "\n};\n\nstatic const struct unicode_property unicode_properties[] = {\n"
    for (x = 1; x <= nkeys; x++) {
        k = keys[x]
        if (k ~ /^tmp:/) continue
        seen[k] = 1
        printf "    {\"%s\", %d, %d},\n", k, first[k], cnt[k]
    }
    for (x = 1; x <= naliases; x++) {
        a = aliases[x]
        if (a in seen) continue
        seen[a] = 1
        printf "    {\"%s\", %d, %d},\n", a, first[alias_of[x]], cnt[alias_of[x]]
    }
    printf "};\n"
}' "$tmp/sorted" "$UCD/PropertyAliases.txt" "$UCD/PropertyValueAliases.txt"
