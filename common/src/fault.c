#include <string.h>
#include "pp/fault.h"

static const char *requested;
static int fired;

void pp_fault_set(const char *name) { requested = name; fired = 0; }
const char *pp_fault_requested(void) { return requested; }

int pp_fault(const char *name) { return requested && strcmp(requested, name) == 0; }

int pp_fault_fire(const char *name) {
  if (!pp_fault(name)) return 0;
  fired = 1;
  return 1;
}

int pp_fault_fired(void) { return fired; }

int pp_fault_listed(const char *const *names, const char *name) {
  for (; names && *names; names++)
    if (!strcmp(*names, name)) return 1;
  return 0;
}
