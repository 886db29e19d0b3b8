# kpath — one plain Makefile.  `make run` and `make test` are all a fresh
# Debian machine needs: both install missing packages first (see `deps`).

PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   ?= $(PREFIX)/bin
DATADIR  ?= $(PREFIX)/share/kpath
MANDIR   ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
VERSION  := 0.1.0

CC       ?= cc
PKG_CONFIG ?= pkg-config
O        ?= build
SANITIZE ?=

CURSES_PKG := $(shell $(PKG_CONFIG) --exists ncursesw 2>/dev/null && echo ncursesw || echo ncurses)
CURSES_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(CURSES_PKG) 2>/dev/null)
CURSES_LIBS   = $(shell $(PKG_CONFIG) --libs $(CURSES_PKG) 2>/dev/null || echo -lncursesw)

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
CFLAGS   ?= -O2 -g
# -ffp-contract=off: weighted random choices use doubles; no fused multiply-add
# keeps them bit-identical on every machine, so a seed means the same inputs.
ALL_CFLAGS = -std=c11 -pthread -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) -ffp-contract=off -MMD -MP \
             -DKPATH_VERSION='"$(VERSION)"' -DKPATH_DATADIR='"$(DATADIR)"' -Isrc
ifneq ($(SANITIZE),)
ALL_CFLAGS += -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS    += -fsanitize=address,undefined
endif

CORE_SRC := $(wildcard src/*/*.c)
CLI_SRC  := $(wildcard cli/*.c)
# The TUI: the only code that includes curses or readline; it goes into the
# kpath binary only, never into libkpath.a.
UI_SRC   := $(wildcard ui/*.c)
TEST_SRC := $(wildcard tests/unit/*.c) $(wildcard tests/support/*.c)
BENCH_SRC := $(wildcard tests/bench/*.c) tests/support/random_grammar.c

CORE_OBJ := $(CORE_SRC:%.c=$(O)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(O)/%.o)
UI_OBJ   := $(UI_SRC:%.c=$(O)/%.o)
UI_LIBS   = $(CURSES_LIBS) -lreadline
TEST_OBJ := $(TEST_SRC:%.c=$(O)/%.o)
LIB      := $(O)/libkpath.a
KPATH    := $(O)/kpath
UNIT     := $(O)/unit-tests
BENCH    := $(O)/bench

DEFAULT_GRAMMAR := grammars/expr.ebnf

.PHONY: all deps run subjects test test-build bench generalize-oracles formats-check antlr-check fuzz screenshots docs \
        install uninstall clean

all: $(KPATH)

# ---- dependencies ---------------------------------------------------------
# parallel: GNU parallel, for the test that spreads `kpath run --shard` over jobs.
# clang: kpath run --harness builds libFuzzer harnesses with it (its test).
DEB_PACKAGES := libncurses-dev libreadline-dev uthash-dev pkg-config parallel clang
deps:
	@missing=""; \
	[ -f /usr/include/uthash.h ] || missing="$$missing uthash-dev"; \
	[ -f /usr/include/readline/readline.h ] || missing="$$missing libreadline-dev"; \
	{ [ -f /usr/include/ncursesw/curses.h ] || [ -f /usr/include/curses.h ]; } || missing="$$missing libncurses-dev"; \
	command -v $(PKG_CONFIG) >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	command -v parallel >/dev/null 2>&1 || missing="$$missing parallel"; \
	command -v clang >/dev/null 2>&1 || missing="$$missing clang"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "deps: installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null || exit 1; \
	  else \
	    echo "deps: missing$$missing; install them with:"; \
	    echo "  sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi

# ---- build ----------------------------------------------------------------
# Quiet by default: one short line per file; `make V=1` shows the commands.
V ?=
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-5s %s\n' $(1) $(2)
endif

$(O)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(UI_OBJ): ALL_CFLAGS += $(CURSES_CFLAGS)

$(LIB): $(CORE_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(AR) rcs $@ $^

$(KPATH): $(CLI_OBJ) $(UI_OBJ) $(LIB)
	$(call say,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -pthread -o $@ $(CLI_OBJ) $(UI_OBJ) $(LIB) $(UI_LIBS) -lm

$(UNIT): $(TEST_OBJ) $(LIB)
	$(call say,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) -lm

$(BENCH): $(BENCH_SRC:%.c=$(O)/%.o) $(UI_OBJ) $(LIB)
	$(call say,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(UI_LIBS) -lm

# `make run` builds in parallel (one job per core) before it starts.
NPROC := $(shell nproc 2>/dev/null || echo 2)
run: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(KPATH)
	./$(KPATH) $(DEFAULT_GRAMMAR)

# ---- programs under test (subjects/, tests/subjects/) ----------------------
# They are not kpath: built without kpath's flags or sanitizers.  calc gets
# --coverage, so `kpath run --gcov $(O)/subjects` sees what each run did.
SUBJECTS := $(O)/subjects/calc $(O)/subjects/url $(O)/tests/subjects/hostile \
            $(O)/tests/subjects/lang $(O)/tests/subjects/harness_list
subjects: $(SUBJECTS)

$(O)/subjects/calc: subjects/calc.c | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O0 -g --coverage -o $@ $<

$(O)/subjects/url: subjects/url.c | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -o $@ $<

$(O)/tests/subjects/lang: tests/subjects/lang.c | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -o $@ $<

# The libFuzzer harness of tests/subjects/harness_list.c as a program of its
# own (stdin), for --gcov beside kpath run --harness (which builds the harness).
$(O)/tests/subjects/harness_list: tests/subjects/harness_list.c | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O0 -g --coverage -DKPATH_STANDALONE -o $@ $<

$(O)/tests/subjects/hostile: tests/subjects/hostile.c | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -o $@ $<

# ---- tests ----------------------------------------------------------------
# `make test` runs everything twice: once optimized, once under ASan+UBSan.
test: deps
	@$(MAKE) --no-print-directory test-build O=build
	@$(MAKE) --no-print-directory test-build O=build/san SANITIZE=1 CFLAGS="-g"
	@echo "make test: all suites passed (plain and sanitized)"

test-build: $(KPATH) $(UNIT) $(SUBJECTS)
	@echo "== layers of src/, ui/ and cli/"
	@sh tests/layers/tree.sh
	@sh tests/layers/selftest.sh
	@sh tests/layers/run.sh
	@echo "== unit tests ($(O))"
	@KPATH_ROOT=$(CURDIR) ./$(UNIT)
	@echo "== cli tests ($(O))"
	@KPATH=$(CURDIR)/$(KPATH) sh tests/cli/run.sh
	@echo "== tui tests ($(O))"
	@KPATH=$(CURDIR)/$(KPATH) sh tests/tui/run.sh

# BENCH_SECTIONS="big-grammars ..." runs only those sections: the sections
# of tests/bench/bench.c (core, generation, parsing, ...; it names them when
# given one it lacks) and the scripts' sections `formats`
# (tests/bench/formats_check.sh), `calc-behaviour` (calc_behaviour.sh) and
# `behaviour` (behaviour.sh).  Empty: every section, then generalize.sh,
# generalize_oracles.sh and antlr_check.sh (docs/benchmarks.md).
BENCH_SCRIPT_SECTIONS := formats calc-behaviour behaviour
BENCH_C_SECTIONS = $(filter-out $(BENCH_SCRIPT_SECTIONS),$(BENCH_SECTIONS))
# $(call bench_runs,NAME): non-empty when section NAME is to run
bench_runs = $(if $(strip $(BENCH_SECTIONS)),$(filter $(1),$(BENCH_SECTIONS)),all)
bench: $(BENCH) $(KPATH) $(SUBJECTS)
	@$(if $(strip $(BENCH_SECTIONS)),$(if $(strip $(BENCH_C_SECTIONS)),,: ))KPATH=$(CURDIR)/$(KPATH) ./$(BENCH) $(CURDIR) $(BENCH_C_SECTIONS)
	@[ -n "$(BENCH_SECTIONS)" ] || KPATH=$(CURDIR)/$(KPATH) BUILD=$(CURDIR)/$(O) sh tests/bench/generalize.sh
	@[ -n "$(BENCH_SECTIONS)" ] || KPATH=$(CURDIR)/$(KPATH) sh tests/bench/generalize_oracles.sh
	@$(if $(call bench_runs,formats),,: )KPATH=$(CURDIR)/$(KPATH) sh tests/bench/formats_check.sh
	@$(if $(call bench_runs,calc-behaviour),,: )KPATH=$(CURDIR)/$(KPATH) sh tests/bench/calc_behaviour.sh
	@$(if $(call bench_runs,behaviour),,: )KPATH=$(CURDIR)/$(KPATH) sh tests/bench/behaviour.sh
	@[ -n "$(BENCH_SECTIONS)" ] || KPATH=$(CURDIR)/$(KPATH) sh tests/bench/antlr_check.sh

# Real grammars: ANTLR (KPATH_GRAMMARS_V4=a grammars-v4 checkout), TRIBBLE
# (KPATH_TRIBBLE=a tribble checkout), Fandango (KPATH_FANDANGO); each skipped
# when its variable is not set.
formats-check: $(KPATH)
	@KPATH=$(CURDIR)/$(KPATH) sh tests/bench/formats_check.sh
	@KPATH=$(CURDIR)/$(KPATH) sh tests/bench/antlr_check.sh

# kpath's reading of ANTLR grammars against ANTLR itself (antlr4 and a JDK;
# skipped, saying so, without them): tests/bench/antlr_check.sh.
antlr-check: $(KPATH)
	@KPATH=$(CURDIR)/$(KPATH) sh tests/bench/antlr_check.sh

# Learning against real parsers alone (issue #35; part of make bench):
# KPATH_BEFORE=BINARY adds another kpath's figures beside, N, COUNTS and
# SUBJECTS make it shorter (tests/bench/generalize_oracles.sh).
generalize-oracles: $(KPATH)
	@KPATH=$(CURDIR)/$(KPATH) sh tests/bench/generalize_oracles.sh

# ---- screenshots: SVG pictures of the explorer, drawn by kpath itself -------
screenshots: $(KPATH)
	@sh screenshots/make.sh $(CURDIR)/$(KPATH)

# ---- fuzzing (clang + libFuzzer; the explorer's keys: any C compiler) ------
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Isrc -ffp-contract=off \
              -DKPATH_VERSION='"$(VERSION)"' -DKPATH_DATADIR='"$(DATADIR)"' \
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# Three targets, FUZZ_SECONDS each: the grammar loader, then the sample parser
# (first byte: which bundled grammar; seeded with the hand-written samples and
# random inputs of each grammar, prefixed with that byte), then generation
# (random grammars from tests/support/random_grammar.c and mutated grammar
# texts through cover -k 2 under the default budgets: an abort, a single
# allocation over 2 GB or a run over 20 s is a failure).
fuzz: deps $(KPATH)
	@mkdir -p $(O)/fuzz tests/fuzz/crashes $(O)/fuzz/corpus
	clang $(FUZZ_FLAGS) -o $(O)/fuzz/fuzz-grammar tests/fuzz/fuzz_grammar.c $(CORE_SRC) -lm
	cp grammars/*.ebnf $(O)/fuzz/corpus/
	$(O)/fuzz/fuzz-grammar -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=tests/fuzz/crashes/ \
	    -max_len=4096 $(O)/fuzz/corpus
	@mkdir -p tests/fuzz/crashes-parse $(O)/fuzz/corpus-parse
	clang $(FUZZ_FLAGS) -DKPATH_FUZZ_GRAMMAR_DIR='"$(CURDIR)/grammars"' -o $(O)/fuzz/fuzz-parse \
	    tests/fuzz/fuzz_parse.c $(CORE_SRC) -lm
	@i=0; for g in grammars/*.ebnf; do \
	  n=$$(basename $$g .ebnf); byte=$$(printf '%03o' $$i); \
	  rm -rf $(O)/fuzz/gen-$$n; \
	  ./$(KPATH) gen --strategy random -n 20 -o $(O)/fuzz/gen-$$n $$g 2>/dev/null; \
	  for s in tests/samples/$$n/*/* $(O)/fuzz/gen-$$n/*.txt; do \
	    [ -f "$$s" ] || continue; \
	    { printf "\\$$byte"; cat "$$s"; } >$(O)/fuzz/corpus-parse/$$n-$$(basename $$s); \
	  done; i=$$((i + 1)); \
	done
	$(O)/fuzz/fuzz-parse -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=tests/fuzz/crashes-parse/ \
	    -max_len=4096 -timeout=20 $(O)/fuzz/corpus-parse
	@mkdir -p tests/fuzz/crashes-gen $(O)/fuzz/corpus-gen
	clang $(FUZZ_FLAGS) -Itests/support -o $(O)/fuzz/fuzz-gen tests/fuzz/fuzz_gen.c tests/support/gen_case.c \
	    tests/support/random_grammar.c $(CORE_SRC) -lm
	cp grammars/*.ebnf $(O)/fuzz/corpus-gen/
	@for s in 1 2 3 4 5 6 7 8; do \
	  printf "\\000\\000\\000\\000\\000\\000\\000\\000\\$$(printf %03o $$s)\\$$(printf %03o $$((s * 31)))" \
	    >$(O)/fuzz/corpus-gen/random-$$s; \
	done
	$(O)/fuzz/fuzz-gen -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=tests/fuzz/crashes-gen/ \
	    -max_len=4096 -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=2048 $(O)/fuzz/corpus-gen
	@$(MAKE) --no-print-directory fuzz-keys

# The explorer's keys (tests/fuzz/fuzz_keys.c): seeded random key sequences
# through script mode (its command line is readline, as in the terminal)
# under AddressSanitizer+UBSan, FUZZ_SECONDS in all; a failing case prints
# its seed and keys and is kept in tests/fuzz/crashes-keys/.  Needs no clang.
.PHONY: fuzz-keys
fuzz-keys:
	@mkdir -p $(O)/fuzz tests/fuzz/crashes-keys
	@$(MAKE) --no-print-directory $(O)/san/kpath O=$(O)/san SANITIZE=1 CFLAGS=-g
	$(CC) -std=c11 -O2 -o $(O)/fuzz/fuzz-keys tests/fuzz/fuzz_keys.c
	$(O)/fuzz/fuzz-keys --seconds $(FUZZ_SECONDS) --out tests/fuzz/crashes-keys $(O)/san/kpath \
	    grammars/expr.ebnf grammars/json.ebnf grammars/arith.ebnf

# ---- the manual page and shell completion, made by kpath from its tables ----
DOCS := $(O)/kpath.1 $(O)/kpath.bash $(O)/_kpath
docs: $(DOCS)
$(O)/kpath.1: $(KPATH)
	$(call say,GEN,$@)
	$(Q)./$(KPATH) --man >$@.tmp && mv $@.tmp $@
$(O)/kpath.bash: $(KPATH)
	$(call say,GEN,$@)
	$(Q)./$(KPATH) --completion bash >$@.tmp && mv $@.tmp $@
$(O)/_kpath: $(KPATH)
	$(call say,GEN,$@)
	$(Q)./$(KPATH) --completion zsh >$@.tmp && mv $@.tmp $@

# The command and key tables of docs/commands.md and docs/explorer.md,
# rewritten from the program's own tables (tests/cli/scripts/docs-tables.sh
# fails when they differ).
.PHONY: docs-tables
docs-tables: $(KPATH)
	@sh docs/tables.sh $(CURDIR)/$(KPATH) docs/commands.md
	@sh docs/tables.sh $(CURDIR)/$(KPATH) docs/explorer.md

# ---- install --------------------------------------------------------------
install: $(KPATH) $(DOCS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/grammars $(DESTDIR)$(DATADIR)/themes \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(KPATH) $(DESTDIR)$(BINDIR)/kpath
	install -m 644 grammars/*.ebnf $(DESTDIR)$(DATADIR)/grammars/
	install -m 644 themes/*.theme $(DESTDIR)$(DATADIR)/themes/
	install -d $(DESTDIR)$(DATADIR)/lattices
	install -m 644 lattices/*.ebnf $(DESTDIR)$(DATADIR)/lattices/
	install -d $(DESTDIR)$(DATADIR)/lessons/samples
	install -m 644 lessons/*.lesson lessons/README.md $(DESTDIR)$(DATADIR)/lessons/
	install -m 644 lessons/samples/* $(DESTDIR)$(DATADIR)/lessons/samples/
	install -m 644 $(O)/kpath.1 $(DESTDIR)$(MANDIR)/man1/kpath.1
	install -m 644 $(O)/kpath.bash $(DESTDIR)$(BASHCOMPDIR)/kpath
	install -m 644 $(O)/_kpath $(DESTDIR)$(ZSHCOMPDIR)/_kpath

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/kpath $(DESTDIR)$(MANDIR)/man1/kpath.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/kpath $(DESTDIR)$(ZSHCOMPDIR)/_kpath
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build

-include $(shell find $(O) -name '*.d' 2>/dev/null)
