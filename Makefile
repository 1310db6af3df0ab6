# Shesh - a backgammon engine that speaks gnubg's external-player protocol.
#
#   make            the shesh binary (build/shesh)
#   make demo       installs what is missing, builds, gnubg plays shesh
#   make test       installs what is missing, builds, runs every test
#   make check      the same tests built with ASan and UBSan (in SAN_BUILD, build-san)
#   make bench      speed figures, the deterministic signature, move quality
#   make fuzz       every libFuzzer harness for FUZZ_SECONDS each (-j2: two at once)
#   make deps       installs missing Debian packages (as root), or says how
#   make library    libshesh.a, libshesh.so and shesh.pc (docs/library.md)
#   make train      the shipped networks made again from nothing (hours; docs/training.md)
#   make install / uninstall   (PREFIX, default /usr/local; DESTDIR)

PREFIX ?= /usr/local
BUILD ?= build
CC ?= cc
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 20
FUZZ_MAX_LEN ?= 4096
# Seconds one input may take before it counts as a hang (harnesses build
# what they share, such as fuzz_proto's engine, in LLVMFuzzerInitialize).
FUZZ_TIMEOUT ?= 30

# libmicrohttpd: `shesh serve --http` (src/net/http.c); curl drives it in tests/t_http.sh.
PKGS := libpcre2-8 zlib jansson libmicrohttpd
DEB_PACKAGES := pkg-config libpcre2-dev zlib1g-dev libjansson-dev libmicrohttpd-dev libcmocka-dev \
                gnubg groff-base curl
FUZZ_DEB_PACKAGES := pkg-config libpcre2-dev zlib1g-dev libjansson-dev libmicrohttpd-dev clang
# make bench also loads the HTTP API with wrk.
BENCH_DEB_PACKAGES := $(DEB_PACKAGES) wrk

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wpointer-arith -Wformat=2 -Wvla -Wundef -Wcast-qual -Wnull-dereference \
        -Wimplicit-fallthrough
# -ffp-contract=off: no fused multiply-adds, whatever the compiler, its
# -std or -march, so that evaluations round the same in every build.
BASE_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -ffp-contract=off $(WARN) -g
OPT ?= -O2
# The engine's evaluation at -O3: its loops over points, rolls and hidden
# units unrolled and vectorised make a static evaluation about a tenth faster
# (docs/performance.md). The same IEEE operations in the same order (no
# -ffast-math, no contraction), so the same bits. Not the rest: gcc 12 at
# -O3 warns wrongly in the move generator and util/num.c, and -Werror stops.
ENGINE_OPT ?= -O3
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lpcre2-8 -lz -ljansson -lmicrohttpd)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

ifeq ($(SAN),1)
CFLAGS_ALL = $(BASE_CFLAGS) -O1 $(SAN_FLAGS) $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = $(SAN_FLAGS) $(LDFLAGS)
else
CFLAGS_ALL = $(BASE_CFLAGS) $(OPT) $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = $(LDFLAGS)
endif
LIBS = $(PKG_LIBS) -lpthread -lm

# The layers of src/, bottom to top (docs/architecture.md). A file sees the
# headers of its own folder and of the folders before it, and no others: each
# folder is compiled with only those include paths, so an include of a higher
# layer fails to build. `make layers` also compiles every header on its own.
LAYERS := util core engine net play proto cli
layers_upto = $(if $(filter $(1),$(firstword $(2))),$(firstword $(2)),$(firstword $(2)) \
              $(call layers_upto,$(1),$(wordlist 2,$(words $(2)),$(2))))
layer_inc = $(foreach l,$(call layers_upto,$(1),$(LAYERS)),-Isrc/$(l))
# src/lib, the public C API (shesh.h, docs/library.md), stands beside the
# layers above engine: it sees util, core and engine and nothing else, and
# no layer sees it, so embedding programs get the engine without the
# command line, the network or the protocols.
API_LAYERS := util core engine
API_INC := $(API_LAYERS:%=-Isrc/%) -Isrc/lib
ALL_INC := $(foreach l,$(LAYERS),-Isrc/$(l)) -Isrc/lib
# The layer of an object or source path such as engine/search.
layer_of = $(firstword $(subst /, ,$(1)))
# The include paths the files of a folder (a layer, or lib) compile with.
inc_of = $(if $(filter lib,$(1)),$(API_INC),$(call layer_inc,$(1)))

HEADERS := $(wildcard $(LAYERS:%=src/%/*.h) src/lib/*.h)
LIB_SRC := $(wildcard $(LAYERS:%=src/%/*.c) src/lib/*.c)
# The network compiled in (src/engine/weights/README.md lists them all):
# its file's bytes become an array in a generated engine source,
# nn_default.c, built with every flavour of the library's objects.
NN_DEFAULT := src/engine/weights/shesh-feat-19.snn
# The race network compiled in; empty: none, races are the race model's.
NN_RACE_DEFAULT := src/engine/weights/shesh-race-2.snn
# The cube network compiled in: a contact network that values positions
# (the cube's, above all) where the contact network chooses the moves
# (engine.h); empty: none, the contact network does both.
NN_CUBE_DEFAULT := src/engine/weights/shesh-cube-1.snn
NN_GEN := $(BUILD)/gen/engine/nn_default.c
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/engine/nn_default.o
# The shared library's objects: position-independent, kept apart so that
# the binary and the static library keep their code as it was; only the
# layers the API sees, since nothing else could be called.
PIC_SRC := $(wildcard $(API_LAYERS:%=src/%/*.c) src/lib/*.c)
PIC_OBJ := $(PIC_SRC:src/%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/engine/nn_default.o
SONAME := libshesh.so.0
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_SUPPORT := $(wildcard tests/support/*.c)
SHELL_TESTS := $(sort $(wildcard tests/t_*.sh))
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)

.PHONY: all test check bench fuzz fuzz-build deps demo install uninstall clean unit-tests \
        run-tests print-inc library train

all: $(BUILD)/shesh

# Objects depend on the Makefile too: new flags rebuild them.
$(BUILD)/obj/engine/%.o $(BUILD)/pic/engine/%.o: OPT = $(ENGINE_OPT)
$(BUILD)/obj/%.o: src/%.c $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(call inc_of,$(call layer_of,$*)) -c $< -o $@

$(BUILD)/pic/%.o: src/%.c $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fPIC $(call inc_of,$(call layer_of,$*)) -c $< -o $@

# od prints the bytes in decimal, 16 a line; sed makes them initializers.
# NN_STAMP holds NN_DEFAULT's name, rewritten when the name changes, so that
# another network named on the command line (make NN_DEFAULT=...) is
# compiled in even when its file is older.
NN_STAMP := $(BUILD)/gen/nn_default.name
NN_NAMES := $(NN_DEFAULT) $(NN_RACE_DEFAULT) $(NN_CUBE_DEFAULT)
$(shell mkdir -p $(BUILD)/gen && { echo '$(NN_NAMES)' | \
    cmp -s - $(NN_STAMP) || echo '$(NN_NAMES)' > $(NN_STAMP); })
NN_BYTES = od -An -v -tu1 $(1) | sed 's/^ *//; s/  */,/g; s/$$/,/'
# The array of a network that may be absent (race, cube): without one it
# holds one byte and its size says 0.
NN_OPTIONAL = printf '%s\n' 'const unsigned char nn_$(1)_default_file[] = {'; \
    if [ -n '$(2)' ]; then $(call NN_BYTES,$(2)); size='sizeof nn_$(1)_default_file'; \
    else echo 0; size=0; fi; \
    printf '%s\n' '};' "const size_t nn_$(1)_default_file_size = $$size;"
$(NN_GEN): $(NN_DEFAULT) $(NN_RACE_DEFAULT) $(NN_CUBE_DEFAULT) $(NN_STAMP) Makefile
	@mkdir -p $(@D)
	{ printf '%s\n' '/* nn_default.c - made by make from $(NN_NAMES); do not edit. */' \
	      '#include "nn_file.h"' '' 'const unsigned char nn_default_file[] = {'; \
	  $(call NN_BYTES,$(NN_DEFAULT)); \
	  printf '%s\n' '};' 'const size_t nn_default_file_size = sizeof nn_default_file;'; \
	  $(call NN_OPTIONAL,race,$(NN_RACE_DEFAULT)); \
	  $(call NN_OPTIONAL,cube,$(NN_CUBE_DEFAULT)); \
	} > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/engine/nn_default.o: $(NN_GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(call inc_of,engine) -c $< -o $@

$(BUILD)/pic/engine/nn_default.o: $(NN_GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fPIC $(call inc_of,engine) -c $< -o $@

# The library the binary links and `make install` ships.
$(BUILD)/libshesh.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

# The static library `make install` ships: the objects of the layers the API
# sees, linked into one object whose only global names are shesh.h's (the
# others made local to it), so that a program's own names cannot clash with
# those of Shesh's modules. The binary links the whole archive above.
API_OBJ := $(PIC_SRC:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/engine/nn_default.o
$(BUILD)/api/libshesh.a: $(API_OBJ)
	@mkdir -p $(@D)
	ld -r -o $(@D)/shesh.o $^
	objcopy --wildcard --keep-global-symbol='shesh_*' $(@D)/shesh.o
	rm -f $@ && ar rcs $@ $(@D)/shesh.o

# Exports only the shesh_* functions of shesh.h (src/lib/shesh.map).
$(BUILD)/$(SONAME): $(PIC_OBJ) src/lib/shesh.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/lib/shesh.map \
	    $(LDFLAGS_ALL) $(PIC_OBJ) $(LIBS) -o $@

$(BUILD)/libshesh.so: $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

# pkg-config's file for the installed library, for this PREFIX.
$(BUILD)/shesh.pc: Makefile src/util/version.h
	@mkdir -p $(@D)
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	    'Name: shesh' 'Description: the Shesh backgammon engine' \
	    "Version: $$(sed -n 's/^#define SHESH_VERSION "\(.*\)"/\1/p' src/util/version.h)" \
	    'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lshesh' \
	    'Libs.private: $(PKG_LIBS) -lpthread -lm' > $@

library: $(BUILD)/api/libshesh.a $(BUILD)/libshesh.so $(BUILD)/shesh.pc

$(BUILD)/shesh: src/main.c $(BUILD)/libshesh.a
	$(CC) $(CFLAGS_ALL) $(ALL_INC) $< $(BUILD)/libshesh.a $(LDFLAGS_ALL) $(LIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(TEST_SUPPORT) $(wildcard tests/support/*.h) $(BUILD)/libshesh.a | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) $(ALL_INC) -Itests/support $< $(TEST_SUPPORT) $(BUILD)/libshesh.a \
	    $(LDFLAGS_ALL) $(CMOCKA_LIBS) $(LIBS) -o $@

$(BUILD)/tests $(BUILD)/fuzz:
	mkdir -p $@

# Programs the shell tests run besides shesh (tests/tools/*.c named here),
# with the test support code; and the programs that measure for docs/,
# built with the tests so that they keep building (run by hand).
TEST_TOOLS := $(BUILD)/tools/record_games
MEASURE_TOOLS := $(addprefix $(BUILD)/tools/,table_speed cube_agreement bearoff_two_sided)

$(BUILD)/tools/%: tests/tools/%.c $(TEST_SUPPORT) $(wildcard tests/support/*.h) $(BUILD)/libshesh.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ALL_INC) -Itests/support $< $(TEST_SUPPORT) \
	    $(BUILD)/libshesh.a $(LDFLAGS_ALL) $(LIBS) -o $@

unit-tests: $(TEST_BIN) $(BUILD)/shesh $(TEST_TOOLS) $(MEASURE_TOOLS)

# The include paths of one layer (LAYER=core ...), or of all of them: for
# tests/t_layers.sh and the tools in tests/tools.
print-inc:
	@echo $(if $(LAYER),$(call inc_of,$(LAYER)),$(ALL_INC))

# Unit tests (cmocka) first, then the shell tests that drive the binary and
# gnubg the way a user would. Every test runs from the top of the tree.
run-tests: unit-tests
	@set -e; fail=0; \
	for t in $(TEST_BIN); do \
	    echo "== $$t"; $$t || fail=1; \
	done; \
	for t in $(SHELL_TESTS); do \
	    echo "== $$t"; SHESH=$(BUILD)/shesh TOOLS=$(BUILD)/tools bash $$t || fail=1; \
	done; \
	if [ $$fail -ne 0 ]; then echo "TESTS FAILED"; exit 1; fi; echo "ALL TESTS PASSED"

test: deps
	$(MAKE) run-tests

# A build directory of its own: sanitizer objects must not mix with others.
SAN_BUILD ?= build-san
check: deps
	$(MAKE) BUILD=$(SAN_BUILD) SAN=1 run-tests

# Move generation first, then `shesh serve` beside gnubg's `external` at
# equal depth on the same requests (tests/bench_serve.sh says how, and which
# BENCH_* variables change the rounds, depths and connections), `shesh ubgi`
# over its pipe, the HTTP API beside the socket (with wrk), then the
# speed of `shesh match`, and last the move quality on gnubg's 2-ply
# benchmark by position class (tests/tools/bench_moves.sh; BENCH_MOVES_PLIES
# the depths, BENCH_MOVES_DATA the file, kept outside the repository: the
# step is skipped with a note when it is absent).
BENCH_MOVES_DATA ?= ../shared/positions/benchmark/benchmark2ply-dev.tsv.gz
bench:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(BENCH_DEB_PACKAGES)"
	$(MAKE) $(BUILD)/shesh
	$(BUILD)/shesh bench
	bash tests/bench_evals.sh $(BUILD)/shesh
	$(CC) $(CFLAGS_ALL) $(ALL_INC) tests/tools/netc.c src/net/listen.c src/util/err.c $(LDFLAGS_ALL) \
	    -lpthread -lm -o $(BUILD)/netc
	$(CC) $(CFLAGS_ALL) $(ALL_INC) tests/tools/bench_proto.c $(BUILD)/libshesh.a $(LDFLAGS_ALL) \
	    $(LIBS) -o $(BUILD)/bench_proto
	bash tests/bench_serve.sh $(BUILD)/shesh $(BUILD)/netc $(BUILD)/bench_proto
	bash tests/bench_ubgi.sh $(BUILD)/shesh
	bash tests/bench_http.sh $(BUILD)/shesh $(BUILD)/netc
	bash tests/bench_match.sh $(BUILD)/shesh
	bash tests/tools/bench_moves.sh $(BUILD)/shesh $(BENCH_MOVES_DATA)

# The shipped networks made again from nothing (docs/training.md): each
# stage of shesh train into TRAIN_DIR, a finished stage kept, a stopped one
# resumed from its checkpoint (run make train again after a kill, a reboot
# or Ctrl-C), then every network made and shipped shown side by side.
# Hours of one core; make test never trains.
TRAIN_DIR ?= build/train
# The stages run a build of their own without the race network compiled in:
# every label set up to the race network's was made with the race model
# valuing the races, and makes the same labels only so. The later ones were
# made with the race network beside the contact network of their stage,
# each by a build with that network compiled in; here one build with the
# race network makes them, given the contact network with --weights (a
# build so given a network makes the same labels as one with it compiled
# in, byte for byte, header too): those of feat-8 to feat-12 by
# TRAIN_SHESH_R1, those of feat-13 and feat-14 by TRAIN_SHESH_NARROW.
# Every 2-ply label set up to feat-13's was made before the search's race
# filter, and every one with pubeval's best 5 inside the tree (search.h):
# the builds of the stages search so, so that they make the same labels;
# feat-13's and feat-14's labels were made with the race filter
# (TRAIN_CFLAGS_NARROW: only the narrow tree).
# Every network up to feat-15 has 128 hidden units, and its stage runs in a
# build of that width (a build of 256 would widen it at its --from, or train
# one of 256 from scratch); feat-16's runs in a build of 256
# (TRAIN_SHESH_H256). feat-15's own labels, the wider tree's moves and its
# full rollouts, were made by a default build of the day (TRAIN_SHESH_F15R1),
# feat-16's wider tree's moves by a default build with feat-16 compiled in,
# and feat-17's by a default build of 2026-12-05 with feat-17 compiled in
# (the exact backgammon escapes and the wider 2-ply pass), feat-18's by the
# same with feat-18. Here TRAIN_SHESH_H256 makes them with --weights.
TRAIN_CFLAGS := -DNN_HIDDEN=128 -DSEARCH_RACE_FILTER=0 -DSEARCH_FILTER_DEEP=5
TRAIN_CFLAGS_NARROW := -DNN_HIDDEN=128 -DSEARCH_FILTER_DEEP=5
TRAIN_CFLAGS_WIDE := -DNN_HIDDEN=128
# The full rollouts of feat-8's, feat-10's and feat-11's games, six times
# over: the share of them in every mix from feat-12's on.
TRAIN_ROLLOUTS_X6 := $(foreach i,1 2 3 4 5 6,f8r1 f10r1 f10r1e f11r1)
# feat-16's: feat-15's own after each copy of them.
TRAIN_ROLLOUTS_F15_X6 := $(foreach i,1 2 3 4 5 6,f8r1 f10r1 f10r1e f11r1 f15r1)
# The cube network's: feat-19's rollouts where its 0 and 1 ply disagree,
# six times over, and those of its doubling window (but for the 2,000
# held out, indices 44,995 to 46,994) twelve times over.
TRAIN_ROLLOUTS_F19_X6 := $(foreach i,1 2 3 4 5 6,f19r1 f19r1i)
TRAIN_WINDOW_X12 := $(foreach i,1 2 3 4 5 6 7 8 9 10 11 12,f19wt)
TRAIN_SHESH := $(TRAIN_DIR)/build/shesh
TRAIN_SHESH_R1 := $(TRAIN_DIR)/build-r1/shesh
TRAIN_SHESH_NARROW := $(TRAIN_DIR)/build-narrow/shesh
TRAIN_SHESH_F15R1 := $(TRAIN_DIR)/build-f15r1/shesh
TRAIN_SHESH_H256 := $(TRAIN_DIR)/build-256/shesh
# A train stage reports (and checkpoints) as shesh train does by default,
# every 20,000 games or once a pass over the labels, unless its options say
# otherwise; the reports change no weight.
train_stage = if [ -f $(TRAIN_DIR)/$(1).snn ]; then echo "$(1): made already"; else \
    resume=; [ -f $(TRAIN_DIR)/$(1).snn.ckpt ] && resume=--resume; \
    echo "== $(1)"; \
    $(or $(3),$(TRAIN_SHESH)) train $(2) --out $(TRAIN_DIR)/$(1).snn $$resume || exit 1; fi
# A label stage: shesh label's two shards of a run side by side (each resumed
# when a file of it exists), then merged into $(TRAIN_DIR)/NAME.txt; by
# TRAIN_SHESH, or the build the third argument names.
label_stage = if [ -f $(TRAIN_DIR)/$(1).txt ]; then echo "$(1): made already"; else \
    echo "== $(1)"; pids=; \
    for k in 1 2; do out=$(TRAIN_DIR)/$(1)-$$k.gz; resume=; [ -f $$out ] && resume=--resume; \
        $(or $(3),$(TRAIN_SHESH)) label $(2) --shard $$k/2 --out $$out $$resume & pids="$$pids $$!"; done; \
    for p in $$pids; do wait $$p || exit 1; done; \
    $(TRAIN_SHESH) label merge $(TRAIN_DIR)/$(1)-1.gz $(TRAIN_DIR)/$(1)-2.gz > $(TRAIN_DIR)/$(1).tmp && \
    mv $(TRAIN_DIR)/$(1).tmp $(TRAIN_DIR)/$(1).txt || exit 1; fi
# A join stage: label sets NAMES (of $(TRAIN_DIR)) one after the other into
# $(TRAIN_DIR)/NAME.txt, unless it is there.
join_stage = [ -f $(TRAIN_DIR)/$(1).txt ] || { cat $(2:%=$(TRAIN_DIR)/%.txt) > $(TRAIN_DIR)/$(1).tmp && \
    mv $(TRAIN_DIR)/$(1).tmp $(TRAIN_DIR)/$(1).txt; }
# The supervised stages start from the shipped networks (so that each makes
# the next shipped one): sup-4 from td-3, whose 2-ply search labels the
# positions of its own games and the results of its 6 best moves for a roll
# of others; feat-5, the network with the hand-made features, from sup-4, on
# those labels and sup-4's own of the same kind; feat-6 from feat-5, with
# feat-5's own as well; feat-7 from feat-6 on feat-6's own labels alone,
# feat-8 from feat-7 on those and feat-7's; the race network from random
# weights on full rollouts of races in feat-8's games; feat-10 from feat-8
# on feat-8's own 2-ply labels of moves and, four times over, full rollouts
# of positions of feat-8's games (feat-8 and the race network playing);
# feat-11 from feat-10 on 740,000 of feat-10's 2-ply labels of
# moves (those of seed 241 where its 0 and 1 ply disagree) and, four times
# over, full rollouts of positions of feat-10's games (those of seed 231
# where they disagree) beside feat-10's; feat-12, the network of all
# eighteen features, from feat-11 given the eight further ones (zero
# weights) on 1.5 M of feat-11's own 2-ply labels of moves and, six times
# over, the full rollouts of feat-8's, feat-10's and feat-11's games;
# feat-13 from feat-12 on 1 M of feat-12's own 2-ply labels of moves and
# the same rollouts six times over, with the pairs of results of one roll
# trained as pairs too (--rank); feat-14 from feat-13 the same way on 1 M
# of feat-13's own, and feat-15 from feat-14 on 1 M of feat-14's own and
# feat-13's 1 M beside them; feat-16, feat-15 made 256 units wide, on those
# and 1 M of feat-15's labels of the wider tree, and feat-17 from feat-16
# on 1 M of feat-16's own labels of the wider tree alone, feat-18 from
# feat-17 on those and 1 M of feat-17's own, and feat-19 from feat-18 on
# those and 1 M of feat-18's own, each with the rollouts
# (feat-15's games' too) six times over; the cube network from feat-19 on
# those rollouts and feat-19's own (of its disagreements, six times over,
# and of its doubling window, twelve times over), no labels of moves; the
# second race network from random weights on the first one's labels, reading
# the race model's features too (race-234).
SHIPPED_TD3 := src/engine/weights/shesh-td-3.snn
SHIPPED_SUP4 := src/engine/weights/shesh-sup-4.snn
SHIPPED_FEAT5 := src/engine/weights/shesh-feat-5.snn
SHIPPED_FEAT6 := src/engine/weights/shesh-feat-6.snn
SHIPPED_FEAT7 := src/engine/weights/shesh-feat-7.snn
SHIPPED_FEAT8 := src/engine/weights/shesh-feat-8.snn
SHIPPED_FEAT10 := src/engine/weights/shesh-feat-10.snn
SHIPPED_FEAT11 := src/engine/weights/shesh-feat-11.snn
SHIPPED_FEAT12 := src/engine/weights/shesh-feat-12.snn
SHIPPED_FEAT13 := src/engine/weights/shesh-feat-13.snn
SHIPPED_FEAT14 := src/engine/weights/shesh-feat-14.snn
SHIPPED_FEAT15 := src/engine/weights/shesh-feat-15.snn
SHIPPED_FEAT16 := src/engine/weights/shesh-feat-16.snn
SHIPPED_FEAT17 := src/engine/weights/shesh-feat-17.snn
SHIPPED_FEAT18 := src/engine/weights/shesh-feat-18.snn
SHIPPED_FEAT19 := src/engine/weights/shesh-feat-19.snn
SHIPPED_RACE1 := src/engine/weights/shesh-race-1.snn
# A build of make train: feat-15 compiled in and no cube network, so that
# every label stage values positions by the network it names, and race-1,
# the race network every label set since its own was made with (the first
# build has none).
TRAIN_BUILD = $(MAKE) --no-print-directory NN_DEFAULT=$(SHIPPED_FEAT15) NN_CUBE_DEFAULT= \
    NN_RACE_DEFAULT=$(SHIPPED_RACE1)
train: $(BUILD)/shesh
	@mkdir -p $(TRAIN_DIR)
	@$(TRAIN_BUILD) CFLAGS="$(TRAIN_CFLAGS)" BUILD=$(TRAIN_DIR)/build NN_RACE_DEFAULT= $(TRAIN_SHESH)
	@$(TRAIN_BUILD) CFLAGS="$(TRAIN_CFLAGS)" BUILD=$(TRAIN_DIR)/build-r1 $(TRAIN_SHESH_R1)
	@$(TRAIN_BUILD) CFLAGS="$(TRAIN_CFLAGS_NARROW)" BUILD=$(TRAIN_DIR)/build-narrow $(TRAIN_SHESH_NARROW)
	@$(TRAIN_BUILD) CFLAGS="$(TRAIN_CFLAGS_WIDE)" BUILD=$(TRAIN_DIR)/build-f15r1 $(TRAIN_SHESH_F15R1)
	@$(TRAIN_BUILD) CFLAGS= BUILD=$(TRAIN_DIR)/build-256 $(TRAIN_SHESH_H256)
	@$(call train_stage,shesh-td-2,--games 2000000 --seed 2 --final-rate 0.01 --check-every 250000)
	@$(call train_stage,shesh-td-3,--games 2000000 --seed 3 --rate 0.02 --final-rate 0.005 \
	    --check-every 250000 --from $(TRAIN_DIR)/shesh-td-2.snn)
	@$(call label_stage,s2p,--positions 400000 --seed 31 --trials 0 --plies 2 --weights $(SHIPPED_TD3))
	@$(call label_stage,mv,--positions 240000 --seed 81 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_TD3))
	@$(call join_stage,mix,mv s2p)
	@$(call train_stage,shesh-sup-4,--labels $(TRAIN_DIR)/mix.txt --epochs 40 --rate 0.1 --final-rate 0.002 \
	    --from $(SHIPPED_TD3))
	@$(call label_stage,mv101,--positions 240000 --seed 101 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_SUP4))
	@$(call join_stage,mix3,mix mv101)
	@$(call train_stage,shesh-feat-5,--labels $(TRAIN_DIR)/mix3.txt --epochs 40 --rate 0.1 --final-rate 0.002 \
	    --from $(SHIPPED_SUP4) --features)
	@$(call label_stage,mv111,--positions 240000 --seed 111 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT5))
	@$(call join_stage,mix4,mix3 mv111)
	@$(call train_stage,shesh-feat-6,--labels $(TRAIN_DIR)/mix4.txt --epochs 30 --rate 0.05 --final-rate 0.002 \
	    --from $(SHIPPED_FEAT5))
	@$(call label_stage,mv121,--positions 240000 --seed 121 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT6))
	@$(call train_stage,shesh-feat-7,--labels $(TRAIN_DIR)/mv121.txt --epochs 30 --rate 0.05 --final-rate 0.002 \
	    --from $(SHIPPED_FEAT6))
	@$(call label_stage,mv131,--positions 240000 --seed 131 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT7))
	@$(call join_stage,mix6,mv121 mv131)
	@$(call train_stage,shesh-feat-8,--labels $(TRAIN_DIR)/mix6.txt --epochs 30 --rate 0.05 --final-rate 0.002 \
	    --from $(SHIPPED_FEAT7))
	@$(call label_stage,race201,--race --positions 60000 --seed 201 --trials 72 --truncate 0 --weights $(SHIPPED_FEAT8))
	@$(call label_stage,race203,--race --moves 4 --positions 60000 --seed 203 --trials 72 --truncate 0 \
	    --weights $(SHIPPED_FEAT8))
	@$(call label_stage,race204,--race --positions 30000 --seed 204 --trials 72 --truncate 0 --weights $(SHIPPED_FEAT8))
	@$(call join_stage,races,race201 race203 race204)
	@$(call train_stage,shesh-race-1,--labels $(TRAIN_DIR)/races.txt --epochs 100 --rate 0.3 --final-rate 0.0005 \
	    --race --features)
	@$(call label_stage,mv161,--positions 240000 --seed 161 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT8),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,f8r1,--positions 28800 --seed 211 --trials 72 --truncate 0 --weights $(SHIPPED_FEAT8),\
	    $(TRAIN_SHESH_R1))
	@$(call join_stage,mix10,mv161 f8r1 f8r1 f8r1 f8r1)
	@$(call train_stage,shesh-feat-10,--labels $(TRAIN_DIR)/mix10.txt --epochs 30 --rate 0.05 --final-rate 0.002 \
	    --from $(SHIPPED_FEAT8))
	@$(call label_stage,mv181,--positions 240000 --seed 181 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT10),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,mv251,--positions 100000 --seed 251 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT10),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,mv241,--positions 100000 --seed 241 --moves 6 --trials 0 --plies 2 --disagree 0.05 --weights $(SHIPPED_FEAT10),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,mv261,--positions 300000 --seed 261 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT10),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,f10r1,--positions 43333 --seed 221 --trials 72 --truncate 0 --weights $(SHIPPED_FEAT10),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,f10r1d,--positions 12353 --seed 231 --disagree 0.08 --trials 72 --truncate 0 --weights $(SHIPPED_FEAT10),\
	    $(TRAIN_SHESH_R1))
	@$(call join_stage,mix11,mv181 f8r1 f8r1 f8r1 f8r1 mv251 mv241 mv261 \
	    f10r1 f10r1d f10r1 f10r1d f10r1 f10r1d f10r1 f10r1d)
	@$(call train_stage,shesh-feat-11,--labels $(TRAIN_DIR)/mix11.txt --epochs 30 --rate 0.05 --final-rate 0.002 \
	    --from $(SHIPPED_FEAT10))
	@$(call label_stage,mv271,--positions 1000000 --seed 271 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT11),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,mv281,--positions 500000 --seed 281 --moves 16 --trials 0 --plies 2 --weights $(SHIPPED_FEAT11),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,f10r1e,--positions 18914 --seed 231 --disagree 0.08 --trials 72 --truncate 0 --weights $(SHIPPED_FEAT10),\
	    $(TRAIN_SHESH_R1))
	@$(call label_stage,f11r1,--positions 57727 --seed 291 --trials 72 --truncate 0 --weights $(SHIPPED_FEAT11),\
	    $(TRAIN_SHESH_R1))
	@$(call join_stage,mix12,mv271 mv281 $(TRAIN_ROLLOUTS_X6))
	@$(call train_stage,shesh-feat-12,--labels $(TRAIN_DIR)/mix12.txt --epochs 30 --rate 0.05 --final-rate 0.002 \
	    --from $(SHIPPED_FEAT11) --all-features)
	@$(call label_stage,mv301,--positions 1000000 --seed 301 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT12),\
	    $(TRAIN_SHESH_R1))
	@$(call join_stage,mix13,mv301 $(TRAIN_ROLLOUTS_X6))
	@$(call train_stage,shesh-feat-13,--labels $(TRAIN_DIR)/mix13.txt --epochs 20 --rate 0.05 --final-rate 0.002 \
	    --rank 16 --from $(SHIPPED_FEAT12))
	@$(call label_stage,mv311,--positions 1000000 --seed 311 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT13),\
	    $(TRAIN_SHESH_NARROW))
	@$(call join_stage,mix14,mv311 $(TRAIN_ROLLOUTS_X6))
	@$(call train_stage,shesh-feat-14,--labels $(TRAIN_DIR)/mix14.txt --epochs 20 --rate 0.05 --final-rate 0.002 \
	    --rank 16 --from $(SHIPPED_FEAT13))
	@$(call label_stage,mv321,--positions 1000000 --seed 321 --moves 6 --trials 0 --plies 2 --weights $(SHIPPED_FEAT14),\
	    $(TRAIN_SHESH_NARROW))
	@$(call join_stage,mix15,mv311 mv321 $(TRAIN_ROLLOUTS_X6))
	@$(call train_stage,shesh-feat-15,--labels $(TRAIN_DIR)/mix15.txt --epochs 20 --rate 0.05 --final-rate 0.002 \
	    --rank 16 --from $(SHIPPED_FEAT14))
	@$(call label_stage,mvw341,--positions 1000000 --seed 341 --moves 6 --trials 0 --plies 2,\
	    $(TRAIN_SHESH_F15R1))
	@$(call label_stage,f15r1,--positions 35629 --seed 351 --trials 72 --truncate 0,$(TRAIN_SHESH_F15R1))
	@$(call join_stage,mix16,mv311 mv321 mvw341 $(TRAIN_ROLLOUTS_F15_X6))
	@$(call train_stage,shesh-feat-16,--labels $(TRAIN_DIR)/mix16.txt --epochs 20 --rate 0.05 --final-rate 0.002 \
	    --rank 16 --from $(SHIPPED_FEAT15),$(TRAIN_SHESH_H256))
	@$(call label_stage,mvw361,--positions 1000000 --seed 361 --moves 6 --trials 0 --plies 2 \
	    --weights $(SHIPPED_FEAT16),$(TRAIN_SHESH_H256))
	@$(call join_stage,mix17,mvw361 $(TRAIN_ROLLOUTS_F15_X6))
	@$(call train_stage,shesh-feat-17,--labels $(TRAIN_DIR)/mix17.txt --epochs 20 --rate 0.05 --final-rate 0.002 \
	    --rank 16 --from $(SHIPPED_FEAT16),$(TRAIN_SHESH_H256))
	@$(call label_stage,mvw362,--positions 1000000 --seed 362 --moves 6 --trials 0 --plies 2 \
	    --weights $(SHIPPED_FEAT17),$(TRAIN_SHESH_H256))
	@$(call join_stage,mix18,mvw361 mvw362 $(TRAIN_ROLLOUTS_F15_X6))
	@$(call train_stage,shesh-feat-18,--labels $(TRAIN_DIR)/mix18.txt --epochs 20 --rate 0.05 --final-rate 0.002 \
	    --rank 16 --from $(SHIPPED_FEAT17),$(TRAIN_SHESH_H256))
	@$(call label_stage,mvw363,--positions 1000000 --seed 363 --moves 6 --trials 0 --plies 2 \
	    --weights $(SHIPPED_FEAT18),$(TRAIN_SHESH_H256))
	@$(call join_stage,mix19,mvw361 mvw362 mvw363 $(TRAIN_ROLLOUTS_F15_X6))
	@$(call train_stage,shesh-feat-19,--labels $(TRAIN_DIR)/mix19.txt --epochs 20 --rate 0.05 --final-rate 0.002 \
	    --rank 16 --from $(SHIPPED_FEAT18),$(TRAIN_SHESH_H256))
	@$(call label_stage,f19r1,--positions 30129 --seed 391 --disagree 0.04 --trials 72 --truncate 0 \
	    --weights $(SHIPPED_FEAT19),$(TRAIN_SHESH_H256))
	@$(call label_stage,f19r1i,--positions 10871 --seed 392 --disagree 0.04 --trials 72 --truncate 0 --integers \
	    --weights $(SHIPPED_FEAT19),$(TRAIN_SHESH_H256))
	@$(call label_stage,f19w,--positions 60000 --seed 411 --window 0.62,0.88 --trials 72 --truncate 0 --integers \
	    --weights $(SHIPPED_FEAT19),$(TRAIN_SHESH_H256))
	@[ -f $(TRAIN_DIR)/f19wt.txt ] || { awk -F'\t' '/^#/ || $$1 < 44995 || $$1 >= 46995' $(TRAIN_DIR)/f19w.txt \
	    > $(TRAIN_DIR)/f19wt.tmp && mv $(TRAIN_DIR)/f19wt.tmp $(TRAIN_DIR)/f19wt.txt; }
	@$(call join_stage,mixcube1,$(TRAIN_ROLLOUTS_F15_X6) $(TRAIN_ROLLOUTS_F19_X6) $(TRAIN_WINDOW_X12))
	@$(call train_stage,shesh-cube-1,--labels $(TRAIN_DIR)/mixcube1.txt --epochs 20 --rate 0.01 --final-rate 0.001 \
	    --rank 16 --id shesh-cube-1 --from $(SHIPPED_FEAT19),$(TRAIN_SHESH_H256))
	@$(call train_stage,shesh-race-2,--labels $(TRAIN_DIR)/races.txt --epochs 100 --rate 0.3 --final-rate 0.0005 \
	    --race --all-features)
	$(BUILD)/shesh weights $(TRAIN_DIR)/*.snn src/engine/weights/*.snn

# Fuzzing: every tests/fuzz/fuzz_*.c, linked with the library built once with
# clang's fuzzer instrumentation and ASan + UBSan (any UBSan report is fatal).
# Harness NAME keeps its corpus in $(BUILD)/fuzz/corpus-NAME and starts from
# tests/fuzz/seeds/NAME too; a crash, leak, hang (FUZZ_TIMEOUT s) or failed
# check saves the input in $(BUILD)/fuzz/crashes-NAME/, prints its path and
# the command that replays it, and makes `make fuzz` fail once the other
# harnesses have run. The full output of a run is $(BUILD)/fuzz/NAME.log.
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/%.c=%)
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_DIR)/%)
FUZZ_RUNS := $(FUZZ_NAMES:%=fuzz-run-%)
FUZZ_OBJ := $(LIB_SRC:src/%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/obj/engine/nn_default.o
FUZZ_CFLAGS = $(BASE_CFLAGS) -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer $(PKG_CFLAGS) $(CFLAGS)

$(FUZZ_DIR)/obj/%.o: src/%.c $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(call inc_of,$(call layer_of,$*)) -fsanitize=fuzzer-no-link \
	    -c $< -o $@

$(FUZZ_DIR)/obj/engine/nn_default.o: $(NN_GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(call inc_of,engine) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ) | $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(ALL_INC) $< $(FUZZ_OBJ) $(LIBS) -o $@

fuzz-build: $(FUZZ_BIN)

# The instrumented library objects are kept between runs.
.SECONDARY: $(FUZZ_OBJ)

.PHONY: $(FUZZ_RUNS)
$(FUZZ_RUNS): fuzz-run-%: $(FUZZ_DIR)/%
	@n=$*; dir=$(FUZZ_DIR); log=$$dir/$$n.log; \
	mkdir -p $$dir/corpus-$$n $$dir/crashes-$$n; \
	seeds=; [ -d tests/fuzz/seeds/$$n ] && seeds=tests/fuzz/seeds/$$n; \
	echo "== $$n ($(FUZZ_SECONDS) s)"; \
	if $$dir/$$n -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) \
	        -timeout=$(FUZZ_TIMEOUT) -artifact_prefix=$$dir/crashes-$$n/ \
	        $$dir/corpus-$$n $$seeds > $$log 2>&1; then \
	    echo "ok: $$n: $$(grep -E '^#[0-9]+[[:space:]]+DONE' $$log | tail -n 1 | tr -s '\t ' ' ')"; \
	else \
	    tail -n 30 $$log; \
	    saved=$$(sed -n 's/.*Test unit written to //p' $$log | tail -n 1); \
	    echo "FUZZ FAILED: $$n (log: $$log)"; \
	    if [ -n "$$saved" ]; then \
	        echo "  input saved as: $$saved"; echo "  replay: $$dir/$$n $$saved"; \
	    fi; \
	    exit 1; \
	fi

fuzz:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(FUZZ_DEB_PACKAGES)"
	@$(MAKE) --no-print-directory fuzz-build
	@$(MAKE) --no-print-directory -k $(FUZZ_RUNS) || \
	    { echo "make fuzz: FAILED (see FUZZ FAILED above)"; exit 1; }
	@echo "make fuzz: $(words $(FUZZ_NAMES)) harnesses ran $(FUZZ_SECONDS) s each without a failure"

# Installs the Debian packages that are missing. As root it runs apt-get;
# otherwise it prints the command to run and stops. Without dpkg (not
# Debian) it names the packages and goes on: the build says what it lacks.
deps:
	@if ! command -v dpkg-query >/dev/null 2>&1; then \
	    echo "no dpkg: make sure these (Debian names) are installed: $(DEB_PACKAGES)"; \
	    exit 0; \
	fi; \
	missing=""; for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || \
	        missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing:$$missing"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	    else \
	        echo "missing Debian packages:$$missing"; \
	        echo "run: sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	    fi; \
	fi

demo: deps
	$(MAKE) all
	bash tests/demo.sh $(BUILD)/shesh

# The binary, its man page, and the library (docs/library.md): static and
# shared, the header and pkg-config's file. shesh.pc is made again each
# time, since it names PREFIX.
INSTALLED := bin/shesh share/man/man1/shesh.1 include/shesh.h lib/libshesh.a lib/$(SONAME) \
             lib/libshesh.so lib/pkgconfig/shesh.pc
install: $(BUILD)/shesh $(BUILD)/api/libshesh.a $(BUILD)/$(SONAME)
	@rm -f $(BUILD)/shesh.pc && $(MAKE) --no-print-directory $(BUILD)/shesh.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(BUILD)/shesh $(DESTDIR)$(PREFIX)/bin/shesh
	install -m 644 docs/shesh.1 $(DESTDIR)$(PREFIX)/share/man/man1/shesh.1
	install -m 644 src/lib/shesh.h $(DESTDIR)$(PREFIX)/include/shesh.h
	install -m 644 $(BUILD)/api/libshesh.a $(DESTDIR)$(PREFIX)/lib/libshesh.a
	install -m 755 $(BUILD)/$(SONAME) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libshesh.so
	install -m 644 $(BUILD)/shesh.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/shesh.pc

uninstall:
	rm -f $(INSTALLED:%=$(DESTDIR)$(PREFIX)/%)

clean:
	rm -rf build $(SAN_BUILD)
