/* libFuzzer harness: size and list parsing (pp_parse_size, pp_parse_list,
 * pp_parse_int, pp_parse_double) on arbitrary strings. Checks that accepted
 * values are in range and that a size never parses to a negative number. */
#include <stdlib.h>
#include <string.h>
#include "pp/cli.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = '\0';
  long long v = -1;
  int rc = pp_parse_size(s, &v);
  if (rc == 0 && v < 0) abort();
  if (rc != 0 && rc != -1 && rc != -2) abort();
  pp_list l;
  if (!pp_parse_list(s, 1, 1ll << 40, &l)) {
    if (l.n < 1 || l.n > PP_MAX_LIST) abort();
    for (int i = 0; i < l.n; i++)
      if (l.v[i] < 1 || l.v[i] > 1ll << 40) abort();
  }
  if (!pp_parse_int(s, 3, 1000, &v) && (v < 3 || v > 1000)) abort();
  double x;
  if (!pp_parse_double(s, -1, 1, &x) && !(x >= -1 && x <= 1)) abort();
  free(s);
  return 0;
}
