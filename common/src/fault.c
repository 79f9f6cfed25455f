#include <string.h>
#include "pp/fault.h"

static const char *requested;
static int matched;

void pp_fault_set(const char *name) { requested = name; matched = 0; }
const char *pp_fault_requested(void) { return requested; }

int pp_fault(const char *name) {
  if (!requested || strcmp(requested, name) != 0) return 0;
  matched = 1;
  return 1;
}

int pp_fault_unused(void) { return requested && !matched; }

int pp_fault_listed(const char *const *names, const char *name) {
  for (; names && *names; names++)
    if (!strcmp(*names, name)) return 1;
  return 0;
}
