/* placeholder until the runtime lands */
#include <dcc/runtime.h>
