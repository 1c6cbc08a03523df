// The module is its header (a static inline function); SwiftPM wants a source file per C target.
#include "CPrefetch.h"
