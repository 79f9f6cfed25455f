/* Fixture of tests/models_listed_once.sh: model lists in C. */
const pp_table *pp_table_@M1@(void); /* planted */
static const char *names[] = {"@M1@", "@M2@"}; /* planted */
#define PP_IF_@M2U@_(x) x /* planted */
