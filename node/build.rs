//! Links the addon against Node's N-API symbols (resolved at load time, on every platform).

fn main() {
    napi_build::setup();
}
