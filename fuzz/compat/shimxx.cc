#include <ios>
namespace std { void ios_base_library_init() { static ios_base::Init init; } }
