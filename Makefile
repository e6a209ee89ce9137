# iomatrix - build, test, demo, install.
#
#   make                  build ./iomatrix
#   make test             install missing packages, build, run every test
#   make demo             install missing packages, build, run the quick suite + report
#   make SANITIZE=address,undefined test
#   make fuzz FUZZ_SECONDS=60      (clang + libFuzzer)
#   make bench            iomatrix vs fio on the same workloads, ratios; report,
#                         scale and archive rows; picks parts with
#                         BENCH_ONLY="clock null ram jobs disk rss report scale archive db workloads"
#   make crosscheck       seed suites vs fio/sysbench; run --mpi vs fio's client/server
#   make fidelity         iomatrix vs its exported fio job, zram and loop (root)
#   make install PREFIX=/usr/local DESTDIR=
#   V=1                   show the commands

VERSION := 0.2.0
CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
DESTDIR ?=

PKGS := yaml-0.1 libcjson blkid libarchive sqlite3
HAVE_URING := $(shell pkg-config --exists liburing 2>/dev/null && echo 1)
ifeq ($(HAVE_URING),1)
PKGS += liburing
URING_DEF := -DHAVE_LIBURING=1
endif

HAVE_NUMA := $(shell pkg-config --exists numa 2>/dev/null && echo 1)
ifeq ($(HAVE_NUMA),1)
PKGS += numa
NUMA_DEF := -DHAVE_LIBNUMA=1
endif

# The warnings live here, not in CFLAGS ?=, so `make CFLAGS=-O0` keeps them.
override CFLAGS += -Wall -Wextra -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread \
	-Wmissing-prototypes -Wshadow -Wno-missing-field-initializers \
	-Ibench -Ireport -Icmd $(URING_DEF) $(NUMA_DEF) $(shell pkg-config --cflags $(PKGS) 2>/dev/null) \
	-DIOMATRIX_TEMPLATE_DIR='"$(PREFIX)/share/iomatrix/templates"' \
	-DIOMATRIX_LIBEXEC_DIR='"$(PREFIX)/libexec/iomatrix"'
LDLIBS += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -laio -lm -pthread

ifdef SANITIZE
override CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
override LDFLAGS += -fsanitize=$(SANITIZE)
BUILD ?= build/san
else
BUILD ?= build/default
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
GIT_DIRTY := $(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)

# Sources are found in the rooms: cmd/ (the commands, above both halves),
# bench/*/ (one folder per concern of making sets) and report/ (reading
# them).  Header dependencies come from -MMD -MP.
VERSION_SRC := bench/util/version.c
LIB_SRC := $(filter-out cmd/main.c cmd/mpi/% $(VERSION_SRC),$(wildcard cmd/*.c cmd/*/*.c bench/*/*.c report/*.c report/*/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
VERSION_OBJ := $(BUILD)/bench/util/version.o
MAIN_OBJ := $(BUILD)/cmd/main.o $(VERSION_OBJ)
BIN := $(BUILD)/iomatrix
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
DEPS := $(wildcard $(BUILD)/cmd/*.d $(BUILD)/cmd/*/*.d $(BUILD)/bench/*.d $(BUILD)/bench/*/*.d $(BUILD)/report/*.d $(BUILD)/report/*/*.d $(BUILD)/tests/*.d $(BUILD)/tests/bench/*.d)

.PHONY: all deps test demo bench crosscheck fidelity fuzz install clean check-deps check-layers units man \
	build-deps iomatrix bare

all: iomatrix

# Missing headers stop the build with the package names and the apt-get
# line, not with a compiler error.
build-deps:
	$(Q)sh .ci/check-build-deps

# `run --mpi` execs this helper on every rank (cmd/mpi/): only it links an
# MPI library, so the core build and `make demo` need none.  Built when
# mpicc is there (Debian: openmpi-bin libopenmpi-dev, which `make deps`
# installs with the extras); without it --mpi says what to install.
MPICC ?= mpicc
HAVE_MPI := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_MPI),1)
MPI_BIN := $(BUILD)/iomatrix-mpi
MPI_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard cmd/mpi/*.c))
# Objects like every other room's, so make check-layers reads its calls.
$(BUILD)/cmd/mpi/%.o: cmd/mpi/%.c | build-deps
	@mkdir -p $(dir $@)
	@echo "  MPICC   $<"
	$(Q)OMPI_CC=$(CC) $(MPICC) $(CFLAGS) -Icmd/mpi -MMD -MP -c -o $@ $<
$(MPI_BIN): $(MPI_OBJ) $(LIB_OBJ) $(VERSION_OBJ)
	@echo "  MPILD   $@"
	$(Q)OMPI_CC=$(CC) $(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
endif

iomatrix: build-deps $(BIN) $(MPI_BIN)
ifeq ($(BUILD),build/default)
	$(Q)cp $(BIN) iomatrix.tmp && mv -f iomatrix.tmp iomatrix  # a running ./iomatrix keeps its copy
	$(Q)if [ -n "$(MPI_BIN)" ]; then cp $(MPI_BIN) iomatrix-mpi.tmp && mv -f iomatrix-mpi.tmp iomatrix-mpi; else rm -f iomatrix-mpi; fi
else
	@true
endif

$(BIN): $(LIB_OBJ) $(MAIN_OBJ)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)


$(BUILD)/%.o: %.c | build-deps
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# Only version.o sees the commit, so a new commit rebuilds one file.
$(VERSION_OBJ): $(VERSION_SRC) .git-commit-stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -MMD -MP -DIOMATRIX_VERSION='"$(VERSION)"' \
		-DIOMATRIX_GIT_COMMIT='"$(GIT_COMMIT)$(GIT_DIRTY)"' -c -o $@ $<

.git-commit-stamp: FORCE
	@echo "$(GIT_COMMIT)$(GIT_DIRTY)" | cmp -s - $@ || echo "$(GIT_COMMIT)$(GIT_DIRTY)" > $@
FORCE:

# version.o too: library objects (fingerprint, report) name the build.
$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ) $(VERSION_OBJ)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -MMD -MP -I. -Itests/unit -o $@ $< $(LIB_OBJ) $(VERSION_OBJ) $(LDLIBS) -lcmocka

units: $(UNIT_BIN)

# The manual page, made from the program's own --help texts.
MAN := $(BUILD)/iomatrix.1
man: $(MAN)
$(MAN): $(BIN) man/mkman.sh
	@echo "  MAN     $@"
	$(Q)sh man/mkman.sh $(BIN) $(VERSION) > $@.tmp && mv -f $@.tmp $@

# The bare loops of make bench: the yardstick, built with the same flags.
BARE_BIN := $(BUILD)/tests/bench/bare_libaio $(BUILD)/tests/bench/bare_psync \
	$(BUILD)/tests/bench/clock_cost \
	$(BUILD)/tests/bench/clock_count.so
ifeq ($(HAVE_URING),1)
BARE_BIN += $(BUILD)/tests/bench/bare_uring
endif
# Their twins (-DBARE_TWIN, tests/bench/bare.h): the same loops keeping what
# iomatrix keeps per IO, with bench/stats' own code; and iomatrix without
# per-interval histograms (its worker built with IOMATRIX_NO_IVHIST), so
# that make bench shows what each costs.
STATS_OBJ := $(patsubst %,$(BUILD)/bench/stats/%.o,hist ivhist stats student) \
	$(BUILD)/bench/util/array.o
TWIN_BIN := $(patsubst %,%_twin,$(filter %/bare_libaio %/bare_psync %/bare_uring,$(BARE_BIN)))
NOIV_BIN := $(BUILD)/tests/bench/iomatrix-noivhist
BARE_BIN += $(TWIN_BIN) $(NOIV_BIN)
$(BUILD)/tests/bench/%_twin: tests/bench/%.c tests/bench/bare.h bench/util/monotime.h $(STATS_OBJ)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (twin)"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -DBARE_TWIN -o $@ $< $(STATS_OBJ) -lm \
		$(if $(findstring libaio,$*),-laio) $(if $(findstring uring,$*),$(shell pkg-config --libs liburing))
$(BUILD)/tests/bench/worker_noivhist.o: bench/runner/worker.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (no interval histograms)"
	$(Q)$(CC) $(CFLAGS) -MMD -MP -DIOMATRIX_NO_IVHIST -c -o $@ $<
$(NOIV_BIN): $(filter-out $(BUILD)/bench/runner/worker.o,$(LIB_OBJ)) $(MAIN_OBJ) $(BUILD)/tests/bench/worker_noivhist.o
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/tests/bench/bare_libaio: tests/bench/bare_libaio.c tests/bench/bare.h bench/util/monotime.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -laio
$(BUILD)/tests/bench/bare_psync: tests/bench/bare_psync.c tests/bench/bare.h bench/util/monotime.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<
$(BUILD)/tests/bench/bare_uring: tests/bench/bare_uring.c tests/bench/bare.h bench/util/monotime.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(shell pkg-config --libs liburing)

$(BUILD)/tests/bench/clock_cost: tests/bench/clock_cost.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<
$(BUILD)/tests/bench/clock_count.so: tests/bench/clock_count.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -shared -fPIC -o $@ $< -ldl

bare: $(BARE_BIN)

# Installs what is missing (apt-get as root; otherwise prints the line to run).
deps:
	$(Q)sh .ci/install-deps

# Includes must point down the layers (tests/check_layers.sh says which);
# references point down and no room (a .c with its .h) is in a cycle of
# includes and calls, from the objects of the last build
# (tests/check_cycles.sh; 77: nothing built yet; cmd/mpi is left out
# without mpicc); no static function has an exported name
# (tests/check_names.sh); no product function over 150 lines
# (tests/check_function_length.sh); no comment cites an issue by number
# (tests/check_comments.sh); report code outside render/ and the listed
# edges reads no cJSON (tests/check_json_reads.sh).
check-layers:
	$(Q)sh tests/check_layers.sh
	$(Q)sh tests/check_cycles.sh . $(BUILD) $(if $(HAVE_MPI),,cmd/mpi) || [ $$? = 77 ]
	$(Q)sh tests/check_names.sh . $(BUILD) || [ $$? = 77 ]
	$(Q)sh tests/check_function_length.sh
	$(Q)sh tests/check_comments.sh
	$(Q)sh tests/check_json_reads.sh

# The build before the tests uses every core unless make was given -j
# itself (then its job server is shared).
JOBS_FLAG = $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS)))$(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2))
test: deps
	$(Q)$(MAKE) --no-print-directory $(JOBS_FLAG) iomatrix units bare
	$(Q)$(MAKE) --no-print-directory check-layers
	$(Q)IOMATRIX=$(CURDIR)/$(BIN) BUILD=$(CURDIR)/$(BUILD) sh tests/run.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory iomatrix
	$(Q)sh tests/demo.sh $(CURDIR)/$(BIN)

bench: deps
	$(Q)$(MAKE) --no-print-directory iomatrix bare
	$(Q)BARE=$(CURDIR)/$(BUILD)/tests/bench sh tests/bench/run.sh $(CURDIR)/$(BIN)
	$(Q)sh tests/bench/report_bench.sh $(CURDIR)/$(BIN)
	$(Q)sh tests/bench/scale_bench.sh $(CURDIR)/$(BIN)
	$(Q)sh tests/bench/archive_bench.sh $(CURDIR)/$(BIN)
	$(Q)sh tests/bench/db_bench.sh $(CURDIR)/$(BIN)
	$(Q)sh tests/bench/workloads_bench.sh $(CURDIR)/$(BIN)

crosscheck: deps
	$(Q)$(MAKE) --no-print-directory iomatrix
	$(Q)sh tests/crosscheck/run.sh $(CURDIR)/$(BIN)
	$(Q)sh tests/crosscheck/mpi.sh $(CURDIR)/$(BIN); rc=$$?; [ $$rc = 77 ] || exit $$rc

# exit 77 (a skip, with the reason) is not a failure of make
fidelity: deps
	$(Q)$(MAKE) --no-print-directory iomatrix
	$(Q)sh tests/fidelity/run.sh $(CURDIR)/$(BIN); rc=$$?; [ $$rc = 77 ] || exit $$rc

FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -O1 -g -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread \
	-Ibench -Ireport -Icmd -I. $(URING_DEF) $(NUMA_DEF) $(shell pkg-config --cflags $(PKGS) 2>/dev/null) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
fuzz: deps
	$(Q)mkdir -p build/fuzz
	$(Q)for f in $(FUZZ_SRC); do \
		n=$$(basename $$f .c); \
		echo "  FUZZ    $$n"; \
		clang $(FUZZ_CFLAGS) -o build/fuzz/$$n $$f $(LIB_SRC) $(VERSION_SRC) $(LDLIBS) || exit 1; \
	done
	$(Q)sh tests/fuzz/run.sh build/fuzz $(FUZZ_SECONDS)

install: iomatrix $(MAN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/iomatrix/templates \
		$(DESTDIR)$(PREFIX)/share/iomatrix/suites $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 $(MAN) $(DESTDIR)$(PREFIX)/share/man/man1/iomatrix.1
	install -m 644 completion/iomatrix.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/iomatrix
	install -m 755 iomatrix $(DESTDIR)$(PREFIX)/bin/iomatrix
	if [ -n "$(MPI_BIN)" ]; then install -d $(DESTDIR)$(PREFIX)/libexec/iomatrix && \
		install -m 755 $(MPI_BIN) $(DESTDIR)$(PREFIX)/libexec/iomatrix/iomatrix-mpi; fi
	install -m 644 templates/* $(DESTDIR)$(PREFIX)/share/iomatrix/templates/
	install -m 644 suites/*.yaml $(DESTDIR)$(PREFIX)/share/iomatrix/suites/

clean:
	rm -rf build iomatrix iomatrix-mpi .git-commit-stamp

-include $(DEPS)
