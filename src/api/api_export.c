/**
 * @file api_export.c
 * @brief The shared libionfront's own object: the library is the whole core archive
 *        (linked WHOLE_ARCHIVE); this file only anchors it and checks the header.
 */
#include "ionfront.h"

/* a C compiler sees the public header alone, without the internal ones */
const int ionf_library_api_version = IONF_API_VERSION;
