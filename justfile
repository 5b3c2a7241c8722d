# Everyday tasks for Retrace. `just --list` shows them.

# Start the interactive retractor.
run *ARGS:
    cargo run --release -- {{ARGS}}

# The whole test suite, exactly as CI runs it.
test:
    cargo test --workspace --release

# Formatting and lints, as every commit must pass them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace

# Benchmarks: retro perft against shakmaty's forward perft, and the criterion suite.
bench:
    cargo run --release -p retrace-unmove --example perft_table
    cargo bench -p retrace-unmove

# Fuzz a target of fuzz/fuzz_targets (needs `cargo install cargo-fuzz`; stable toolchain
# allowed), with its dictionary fuzz/dict/TARGET.dict (or DICT=name.dict for another one).
fuzz TARGET="fen" SECONDS="300" DICT=(TARGET + ".dict"):
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run {{TARGET}} -- -max_total_time={{SECONDS}} \
        -dict=dict/{{DICT}}
