/* libjazzer-compat: glibc 2.38 C23 names for strtol/strtoul, for the patched jazzer.js addon (fuzz/compat/prepare-addon.ts). */
#include <stdlib.h>
long __isoc23_strtol(const char *s, char **e, int b) { return strtol(s, e, b); }
unsigned long __isoc23_strtoul(const char *s, char **e, int b) { return strtoul(s, e, b); }
