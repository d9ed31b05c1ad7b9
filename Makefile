# Builds the engine for the machine it runs on, as OpenBench does:
#
#     make EXE=cutoff-dev      # -> ./cutoff-dev (./cutoff-dev.exe on Windows)
#
# `-C target-cpu=native` lets the compiler use every instruction the CPU has. RUSTFLAGS from
# the environment replaces the `rustflags` of .cargo/config.toml (x86-64-v2) rather than
# adding to it, so the native setting is the only one. The build goes to its own target
# directory so that it neither clobbers nor is clobbered by the portable build in target/.
#
#     make EXE=cutoff-dev FEATURES=pext    # also cozy-chess's PEXT attacks (README)
#     make EXE=cutoff-dev FEATURES=tune    # the search's parameters as UCI options (SPSA)

EXE ?= cutoff
CARGO ?= cargo
TARGET_DIR ?= target/native
FEATURES ?=

ifeq ($(OS),Windows_NT)
	OUT := $(EXE).exe
	BIN := cutoff.exe
else
	OUT := $(EXE)
	BIN := cutoff
endif

.PHONY: all clean

all:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release --target-dir $(TARGET_DIR) \
		$(if $(FEATURES),--features $(FEATURES))
	cp $(TARGET_DIR)/release/$(BIN) $(OUT)

clean:
	rm -rf $(TARGET_DIR)
