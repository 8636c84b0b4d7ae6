// libjazzer-compat: GCC 13 libstdc++ std::ios_base_library_init, for the patched jazzer.js addon (fuzz/compat/prepare-addon.ts).
#include <ios>
namespace std { void ios_base_library_init() { static ios_base::Init init; } }
