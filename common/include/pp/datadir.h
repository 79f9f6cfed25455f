/* Where an app finds the suite's shipped inputs (inputs/ of the source tree,
 * share/proxyport/inputs of an install): never a path compiled in, so a
 * relocated install or a copied binary still finds them. */
#ifndef PP_DATADIR_H
#define PP_DATADIR_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* The inputs folder, in this order: `given` (an app's option, NULL if not
 * given), the environment variable PP_INPUTS, then <folder of the
 * executable>/../share/proxyport/inputs (an install, and the build tree,
 * which links it there). Writes it into buf and returns buf, or NULL with
 * buf holding the places tried (for the message) when none is a folder. */
const char *pp_inputs_dir(const char *given, char *buf, size_t len);

/* An input named as testsnap names its cases: `name` itself when it is a file
 * or holds a '/' (a path, taken as given); else <inputs>/<sub>/<name><ext>
 * (ext added unless name ends in it) in the inputs folder above, so that an
 * installed app takes `--deck tiny`. Returns name or buf (the path found), or
 * NULL with buf holding the path looked for (or the places tried). */
const char *pp_input_named(const char *name, const char *sub, const char *ext, char *buf, size_t len);

/* For a path `name` that is not there (a path is taken relative to the
 * current folder): the name by which pp_input_named finds the shipped input
 * of the same file name (inputs/minife/n150.deck given from another folder:
 * "n150"), written into buf; returns buf, or NULL when there is none. */
const char *pp_input_shipped_as(const char *name, const char *sub, const char *ext, char *buf, size_t len);

/* The entries of dir whose names end in suffix (folders when want_dirs, else
 * regular files): sorted, suffix dropped, ", "-separated into buf (cut at
 * len). Returns how many there are; 0 when dir cannot be read. */
int pp_dir_names(const char *dir, const char *suffix, int want_dirs, char *buf, size_t len);

PP_EXTERN_C_END
#endif
