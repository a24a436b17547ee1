/* A bad range of verification as every result writes it (verify, run
 * --verify, a soak's iterations). */
#ifndef SB_VERIFY_RANGE_JSON_H
#define SB_VERIFY_RANGE_JSON_H

#include "lib/json/json_read.h"
#include "lib/json/json_write.h"
#include "lib/verify/ranges.h"

/* {"offset", "length", "class", and what the class adds}; file >= 0 adds
 * the index of the file it lies in. */
void sb_verify_range_json(struct sb_json *j, const struct sb_verify_range *g, int file);
/* One back (its file left out): 0, or -EINVAL when it is not a range of a
 * known class other than intact. */
int sb_verify_range_from_json(const struct sb_jv *v, struct sb_verify_range *g);

#endif
