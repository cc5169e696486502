/* frame: placeholder, being written. */
#include "frame.h"
