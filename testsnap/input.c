/* testsnap's readers: LAMMPS data files, .snapparam/.snapcoeff, per-atom
 * dumps, TestSNAP's reference folder; and the writer of --dump. Every file
 * is read through pp/input.h (regular files only, bounded sizes and lines,
 * text without control bytes), every problem is one line
 * "testsnap: FILE:LINE: what" and exit 2, before anything large is built.
 * The dump is written through pp/outfile.h (a temporary file renamed over
 * the target: never through a symlink, never half a file). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <glob.h>
#include <sys/stat.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/cli.h"
#include "pp/input.h"
#include "pp/outfile.h"
#include "problem.h"

#define MAX_TOK 16
#define MAX_ATOMS 100000000
/* A coordinate is wrapped into the periodic box (x - L floor(x / L)); one k
 * box lengths away keeps about 53 - log2(k) bits of its place in the box.
 * Within 1000 lengths the wrapped position is good to 1000 L 2^-53 (about
 * 1e-11 A in a 100 A box), far below what the checks resolve; farther out
 * (1e18, 1e300) it is noise or exactly 0, so the atom would land elsewhere
 * or on another ("same position"). LAMMPS writes atoms inside the box, or a
 * few lengths out with image flags: nothing real is refused. */
#define MAX_BOX_LENGTHS 1000
#define MAX_LINE 4095
/* Sizes beyond any file of MAX_ATOMS atoms (or of the largest twojmax's
 * coefficients): a larger file is refused before it is read. */
#define BIG_FILE (64LL << 30)
#define SMALL_FILE (16LL << 20)

typedef struct reader {
  pp_input *in;
  const char *path;
  int line;
  char *tok[MAX_TOK];
  int ntok;
  char comment[64];  /* first word after '#' on the line, or "" */
  char a_what[64];   /* "a data file": pp_input's rules point here */
} reader;

static void close_reader(reader *r) {
  pp_input_close(r->in);
  r->in = NULL;
}

static void fail(reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3), noreturn))
#endif
    ;
static void fail(reader *r, const char *fmt, ...) {
  char msg[512]; /* formatted before the reader goes: it may quote the line */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  close_reader(r);
  if (r->line > 0) pp_usage_error("testsnap", "%s:%d: %s", r->path, r->line, msg);
  pp_usage_error("testsnap", "%s: %s", r->path, msg);
}

static void open_reader(reader *r, const char *path, const char *what, long long max_bytes) {
  memset(r, 0, sizeof *r);
  r->path = path;
  snprintf(r->a_what, sizeof r->a_what, "a %s", what);
  const pp_input_rules rules = {what, r->a_what, max_bytes, MAX_LINE, 0, 0};
  r->in = pp_input_open("testsnap", path, &rules);
}

/* Next line, split into tokens ('#' starts a comment). Blank lines too when
 * keep_blank (ntok 0). Returns 0 at the end of the file. */
static int next_line(reader *r, int keep_blank) {
  for (;;) {
    char *buf = pp_input_line(r->in);
    if (!buf) return 0;
    r->line = pp_input_line_number(r->in);
    char *hash = strchr(buf, '#');
    r->comment[0] = '\0';
    if (hash) {
      *hash = '\0';
      if (sscanf(hash + 1, "%63s", r->comment) != 1) r->comment[0] = '\0';
    }
    r->ntok = 0;
    for (char *s = strtok(buf, " \t"); s; s = strtok(NULL, " \t")) {
      if (r->ntok == MAX_TOK) fail(r, "more than %d fields", MAX_TOK);
      r->tok[r->ntok++] = s;
    }
    if (r->ntok || keep_blank) return 1;
  }
}

static double num(reader *r, const char *s, const char *what) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno == ERANGE || !isfinite(v)) fail(r, "%s '%s' is not a finite number", what, s);
  return v;
}
static long long integer(reader *r, const char *s, const char *what) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end || errno == ERANGE) fail(r, "%s '%s' is not an integer", what, s);
  return v;
}

/* ---- .snapparam ------------------------------------------------------------------ */
typedef struct param_set {
  double rcutfac, rfac0, rmin0;
  int twojmax, switchflag, bzeroflag;
  int line_rcutfac, line_twojmax;
} param_set;

static int flag01(reader *r, const char *key, const char *v) {
  long long x = integer(r, v, key);
  if (x != 0 && x != 1) fail(r, "%s = %lld: must be 0 or 1", key, x);
  return (int)x;
}

static void read_param(const char *path, param_set *p) {
  static const char *const keys[] = {"rcutfac", "twojmax", "rfac0", "rmin0", "switchflag", "bzeroflag",
                                     "quadraticflag", "chemflag", "bnormflag", "wselfallflag",
                                     "switchinnerflag", "chunksize", "parallelthresh", NULL};
  int seen[16] = {0};
  reader r;
  open_reader(&r, path, "SNAP parameter file", SMALL_FILE);
  p->rfac0 = 0.99363, p->rmin0 = 0.0, p->switchflag = 1, p->bzeroflag = 1; /* LAMMPS's defaults */
  while (next_line(&r, 0)) {
    if (r.ntok != 2) fail(&r, "expected 'keyword value', found %d fields", r.ntok);
    const char *k = r.tok[0], *v = r.tok[1];
    int ki = 0;
    while (keys[ki] && strcmp(keys[ki], k)) ki++;
    if (!keys[ki]) fail(&r, "unknown keyword '%s'", k);
    if (seen[ki]) fail(&r, "'%s' is set again (first on line %d)", k, seen[ki]);
    seen[ki] = r.line;
    if (!strcmp(k, "rcutfac")) {
      p->rcutfac = num(&r, v, k);
      if (p->rcutfac <= 0) fail(&r, "rcutfac = %s must be positive", v);
    } else if (!strcmp(k, "twojmax")) {
      long long j = integer(&r, v, k);
      if (j < 0 || j % 2 || j > SNAP_TWOJMAX_MAX)
        fail(&r, "twojmax = %lld: must be an even integer from 0 to %d", j, SNAP_TWOJMAX_MAX);
      p->twojmax = (int)j;
    } else if (!strcmp(k, "rfac0")) {
      p->rfac0 = num(&r, v, k);
      if (p->rfac0 <= 0 || p->rfac0 >= 1) fail(&r, "rfac0 = %s must be in (0, 1)", v);
    } else if (!strcmp(k, "rmin0")) {
      p->rmin0 = num(&r, v, k);
      if (p->rmin0 < 0) fail(&r, "rmin0 = %s must not be negative", v);
    } else if (!strcmp(k, "switchflag")) {
      p->switchflag = flag01(&r, k, v);
    } else if (!strcmp(k, "bzeroflag")) {
      p->bzeroflag = flag01(&r, k, v);
    } else if (!strcmp(k, "wselfallflag")) {
      flag01(&r, k, v); /* no effect with one element */
    } else if (!strcmp(k, "chunksize") || !strcmp(k, "parallelthresh")) {
      integer(&r, v, k); /* LAMMPS's Kokkos tuning knobs: no effect on results */
    } else if (integer(&r, v, k) != 0) { /* quadraticflag, chemflag, bnormflag, switchinnerflag */
      fail(&r, "%s = %s is not supported (testsnap is linear SNAP, one element, no inner switch)", k, v);
    }
  }
  close_reader(&r);
  r.line = 0;
  if (!seen[0]) fail(&r, "required keyword 'rcutfac' is missing");
  if (!seen[1]) fail(&r, "required keyword 'twojmax' is missing");
  p->line_rcutfac = seen[0], p->line_twojmax = seen[1];
  r.line = seen[3] ? seen[3] : seen[0];
  if (p->rmin0 >= p->rcutfac) fail(&r, "rmin0 = %g must be below rcutfac = %g", p->rmin0, p->rcutfac);
}

snap_potential *snap_read_potential(const char *coeff_path, const char *param_path) {
  param_set ps;
  memset(&ps, 0, sizeof ps);
  read_param(param_path, &ps);
  const int ncoeff = snap_ncoeff(ps.twojmax);

  reader r;
  open_reader(&r, coeff_path, "SNAP coefficient file", SMALL_FILE);
  if (!next_line(&r, 0)) fail(&r, "empty: expected 'nelements ncoeff'");
  if (r.ntok != 2) fail(&r, "expected 'nelements ncoeff', found %d fields", r.ntok);
  const long long nelem = integer(&r, r.tok[0], "nelements");
  const long long ncall = integer(&r, r.tok[1], "ncoeff");
  if (nelem != 1) fail(&r, "%lld elements: testsnap supports exactly one element", nelem);
  if (ncall != ncoeff + 1)
    fail(&r, "%lld coefficients per element, but twojmax %d (%s line %d) needs %d (beta0 + %d)", ncall,
         ps.twojmax, param_path, ps.line_twojmax, ncoeff + 1, ncoeff);
  if (!next_line(&r, 0)) fail(&r, "file ends before the element line 'name radius weight'");
  if (r.ntok != 3) fail(&r, "expected 'name radius weight', found %d fields", r.ntok);
  snap_potential *p = calloc(1, sizeof *p + sizeof(double) * (size_t)ncoeff);
  p->radius = num(&r, r.tok[1], "radius");
  p->weight = num(&r, r.tok[2], "weight");
  if (p->radius <= 0) fail(&r, "element radius %s must be positive", r.tok[1]);
  for (int k = 0; k <= ncoeff; k++) {
    if (!next_line(&r, 0)) fail(&r, "file ends after %d of %d coefficients", k, ncoeff + 1);
    if (r.ntok != 1) fail(&r, "expected one coefficient, found %d fields", r.ntok);
    const double v = num(&r, r.tok[0], "coefficient");
    if (k == 0) p->beta0 = v;
    else p->beta[k - 1] = v;
  }
  if (next_line(&r, 0)) fail(&r, "unexpected content after the %d coefficients", ncoeff + 1);
  close_reader(&r);
  p->rcutfac = ps.rcutfac, p->rfac0 = ps.rfac0, p->rmin0 = ps.rmin0;
  p->twojmax = ps.twojmax, p->switchflag = ps.switchflag, p->bzeroflag = ps.bzeroflag;
  p->rcut = ps.rcutfac * 2.0 * p->radius;
  p->ncoeff = ncoeff;
  if (!(p->rcut > p->rmin0 && isfinite(p->rcut))) /* the switching function divides by rcut - rmin0 */
    pp_usage_error("testsnap", "%s, %s: the cutoff rcutfac x 2 x radius = %g A must be finite and above rmin0 = %g A",
                   param_path, coeff_path, p->rcut, p->rmin0);
  return p;
}

/* ---- LAMMPS data file ------------------------------------------------------------ */
static int is_section(const reader *r) {
  static const char *const sec[] = {"Atoms", "Velocities", "Masses", "Bonds", "Angles", "Dihedrals",
                                    "Impropers", "Ellipsoids", "Lines", "Triangles", "Bodies",
                                    "Pair", "PairIJ", "Bond", "Angle", "Dihedral", "Improper", NULL};
  if (r->ntok < 1) return 0;
  for (int k = 0; sec[k]; k++)
    if (!strcmp(r->tok[0], sec[k])) return 1;
  return 0;
}

/* Reads count non-blank lines of a section (after its blank line). */
static void skip_section(reader *r, long long count, const char *name) {
  for (long long k = 0; k < count; k++) {
    if (!next_line(r, 0)) fail(r, "file ends in the %s section after %lld of %lld lines", name, k, count);
    if (is_section(r)) fail(r, "%s section has %lld lines, the header says %lld", name, k, count);
  }
}

void snap_read_data(const char *path, snap_atoms *a) {
  reader r;
  open_reader(&r, path, "data file", BIG_FILE);
  memset(a, 0, sizeof *a);
  if (!pp_input_line(r.in)) fail(&r, "empty file (expected a LAMMPS data file)");
  r.line = 1; /* the title line: any text */
  long long natoms = -1, ntypes = -1;
  double lo[3], hi[3];
  int box_line[3] = {0, 0, 0};
  static const char *const axis[] = {"xlo xhi", "ylo yhi", "zlo zhi"};
  /* header */
  int have = next_line(&r, 0);
  for (; have && !is_section(&r); have = next_line(&r, 0)) {
    if (r.ntok == 2 && !strcmp(r.tok[1], "atoms")) {
      natoms = integer(&r, r.tok[0], "atom count");
      if (natoms < 1 || natoms > MAX_ATOMS) fail(&r, "%lld atoms: must be 1 to %d", natoms, MAX_ATOMS);
    } else if (r.ntok == 3 && !strcmp(r.tok[1], "atom") && !strcmp(r.tok[2], "types")) {
      ntypes = integer(&r, r.tok[0], "atom type count");
      if (ntypes != 1) fail(&r, "%lld atom types: testsnap supports one element (1 atom type)", ntypes);
    } else if (r.ntok == 4 && strlen(r.tok[2]) == 3 && !strcmp(r.tok[2] + 1, "lo") && r.tok[2][0] >= 'x' &&
               r.tok[2][0] <= 'z') {
      const int d = r.tok[2][0] - 'x';
      char want[8] = {r.tok[2][0], 'h', 'i', 0};
      if (strcmp(r.tok[3], want)) fail(&r, "expected '%s'", axis[d]);
      lo[d] = num(&r, r.tok[0], "box bound");
      hi[d] = num(&r, r.tok[1], "box bound");
      if (hi[d] <= lo[d]) fail(&r, "empty box along %c: %s >= %s", 'x' + d, r.tok[0], r.tok[1]);
      box_line[d] = r.line;
    } else if (r.ntok == 6 && !strcmp(r.tok[3], "xy")) {
      fail(&r, "triclinic box (xy xz yz): testsnap needs an orthogonal box");
    } else if (r.ntok >= 2) {
      const long long n = integer(&r, r.tok[0], "header count");
      if (n != 0) fail(&r, "header line '%s %s' is not supported (atom_style atomic only)", r.tok[0], r.tok[1]);
    } else {
      fail(&r, "unrecognized header line");
    }
  }
  if (natoms < 0) fail(&r, "header has no 'N atoms' line");
  if (ntypes < 0) fail(&r, "header has no 'N atom types' line");
  for (int d = 0; d < 3; d++)
    if (!box_line[d]) fail(&r, "header has no '%s' line", axis[d]);
  for (int d = 0; d < 3; d++) a->box[d] = hi[d] - lo[d];

  int atoms_done = 0;
  char *seen = NULL;
  while (have) {
    if (!is_section(&r)) fail(&r, "expected a section keyword (Atoms, Masses, Velocities)");
    const int sec_line = r.line, is_atoms = !strcmp(r.tok[0], "Atoms");
    if (!strcmp(r.tok[0], "Masses")) {
      skip_section(&r, ntypes, "Masses");
    } else if (!strcmp(r.tok[0], "Velocities")) {
      skip_section(&r, natoms, "Velocities");
    } else if (is_atoms) {
      if (atoms_done) fail(&r, "second Atoms section (first on line %d)", atoms_done);
      atoms_done = sec_line;
      if (r.comment[0] && strcmp(r.comment, "atomic"))
        fail(&r, "atom style '%s': testsnap reads atom_style atomic", r.comment);
      a->n = (int)natoms;
      a->x = malloc(sizeof(double) * 3 * (size_t)natoms);
      seen = calloc((size_t)natoms, 1);
      if (!a->x || !seen) pp_usage_error("testsnap", "%s: out of memory for %lld atoms", path, natoms);
      for (long long k = 0; k < natoms; k++) {
        if (!next_line(&r, 0)) fail(&r, "file ends in the Atoms section after %lld of %lld atoms", k, natoms);
        if (is_section(&r)) fail(&r, "Atoms section has %lld atoms, the header says %lld", k, natoms);
        if (r.ntok != 5 && r.ntok != 8)
          fail(&r, "expected 'id type x y z [ix iy iz]' (atom_style atomic), found %d fields", r.ntok);
        const long long id = integer(&r, r.tok[0], "atom id");
        if (id < 1 || id > natoms) fail(&r, "atom id %lld outside 1..%lld (the header's atom count)", id, natoms);
        if (seen[id - 1]) fail(&r, "atom id %lld appears twice", id);
        seen[id - 1] = 1;
        if (integer(&r, r.tok[1], "atom type") != 1) fail(&r, "atom type %s: only type 1 exists", r.tok[1]);
        for (int d = 0; d < 3; d++) {
          const double x = num(&r, r.tok[2 + d], "coordinate") - lo[d];
          if (!(fabs(x - 0.5 * a->box[d]) <= (MAX_BOX_LENGTHS + 0.5) * a->box[d]))
            fail(&r, "atom %lld: %c = %s is more than %d box lengths outside the box (%.10g to %.10g): its "
                 "place in the periodic box would be lost", id, 'x' + d, r.tok[2 + d], MAX_BOX_LENGTHS,
                 lo[d], hi[d]);
          a->x[(id - 1) * 3 + d] = x;
        }
      }
    } else {
      fail(&r, "section '%s' is not supported (atom_style atomic: Masses, Atoms, Velocities)", r.tok[0]);
    }
    have = next_line(&r, 0);
    if (have && is_atoms && !is_section(&r))
      fail(&r, "more lines in the Atoms section than the %lld atoms of the header", natoms);
  }
  free(seen);
  close_reader(&r);
  if (!atoms_done) fail(&r, "no Atoms section");
}

/* ---- per-atom dumps -------------------------------------------------------------- */
static int col_of(char **names, int n, const char *want) {
  for (int k = 0; k < n; k++)
    if (!strcmp(names[k], want)) return k;
  return -1;
}

void snap_read_dump(const char *path, int n_expected, snap_ref *ref) {
  reader r;
  open_reader(&r, path, "reference dump", BIG_FILE);
  memset(ref, 0, sizeof *ref);
  long long n = -1;
  int cid = -1, ce = -1, cf[3] = {-1, -1, -1}, ncol = 0;
  while (next_line(&r, 0)) {
    if (strcmp(r.tok[0], "ITEM:")) fail(&r, "expected an 'ITEM:' line (LAMMPS dump format)");
    if (r.ntok >= 4 && !strcmp(r.tok[1], "NUMBER") && !strcmp(r.tok[3], "ATOMS")) {
      if (!next_line(&r, 0) || r.ntok != 1) fail(&r, "expected the number of atoms");
      n = integer(&r, r.tok[0], "number of atoms");
      if (n != n_expected) fail(&r, "%lld atoms, the configuration has %d", n, n_expected);
    } else if (r.ntok >= 2 && !strcmp(r.tok[1], "ATOMS")) {
      ncol = r.ntok - 2;
      char **names = r.tok + 2;
      cid = col_of(names, ncol, "id");
      for (int d = 0; d < 3; d++) {
        char f[3] = {'f', (char)('x' + d), 0};
        cf[d] = col_of(names, ncol, f);
      }
      ce = col_of(names, ncol, "energy");
      if (ce < 0) ce = col_of(names, ncol, "c_peatom");
      if (ce < 0) ce = col_of(names, ncol, "c_pe");
      if (cid < 0 || cf[0] < 0 || cf[1] < 0 || cf[2] < 0) fail(&r, "ATOMS columns need id, fx, fy, fz");
      if (n < 0) fail(&r, "ATOMS before NUMBER OF ATOMS");
      break;
    } else if (r.ntok >= 2 && !strcmp(r.tok[1], "BOX")) {
      for (int k = 0; k < 3; k++)
        if (!next_line(&r, 0)) fail(&r, "file ends in BOX BOUNDS");
    } else if (r.ntok >= 2 && !strcmp(r.tok[1], "TIMESTEP")) {
      if (!next_line(&r, 0)) fail(&r, "file ends after ITEM: TIMESTEP");
    } else {
      fail(&r, "unknown dump item '%s'", r.tok[1]);
    }
  }
  if (ncol == 0) fail(&r, "no 'ITEM: ATOMS' line");
  ref->n = (int)n;
  ref->has_energy = ce >= 0;
  ref->energy = calloc((size_t)n, sizeof(double));
  ref->force = calloc((size_t)n * 3, sizeof(double));
  char *seen = calloc((size_t)n, 1);
  for (long long k = 0; k < n; k++) {
    if (!next_line(&r, 0)) fail(&r, "file ends after %lld of %lld atoms", k, n);
    if (r.ntok != ncol) fail(&r, "%d fields, the ATOMS line names %d", r.ntok, ncol);
    const long long id = integer(&r, r.tok[cid], "atom id");
    if (id < 1 || id > n) fail(&r, "atom id %lld outside 1..%lld", id, n);
    if (seen[id - 1]) fail(&r, "atom id %lld appears twice", id);
    seen[id - 1] = 1;
    if (ce >= 0) ref->energy[id - 1] = num(&r, r.tok[ce], "energy");
    for (int d = 0; d < 3; d++) ref->force[(id - 1) * 3 + d] = num(&r, r.tok[cf[d]], "force");
  }
  if (next_line(&r, 0)) fail(&r, "more than %lld atoms (a second snapshot is not supported)", n);
  free(seen);
  close_reader(&r);
}

int snap_write_dump(const char *path, const snap_atoms *a, int n, int n_energy, const double *energy,
                    const double *force) {
  pp_outfile o;
  if (pp_outfile_open(&o, path) != 0) return -1;
  fprintf(o.f, "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n%d\nITEM: BOX BOUNDS pp pp pp\n", n);
  for (int d = 0; d < 3; d++) fprintf(o.f, "0 %.17g\n", a ? a->box[d] : 0.0);
  fprintf(o.f, "ITEM: ATOMS id energy fx fy fz\n");
  for (int i = 0; i < n; i++)
    fprintf(o.f, "%d %.17g %.17g %.17g %.17g\n", i + 1, i < n_energy ? energy[i] : 0.0, force[3 * i],
            force[3 * i + 1], force[3 * i + 2]);
  return pp_outfile_stage(&o); /* published with the run's other outputs */
}

/* ---- TestSNAP's reference folder ------------------------------------------------- */
/* The folder is taken literally (a folder may be named lit[1], and a folder
 * argument that is itself a pattern must not pick a folder): glob's special
 * characters in it are escaped; only `pattern` is matched. */
void snap_find_file(const char *dir, const char *pattern, char *out, size_t len) {
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    pp_usage_error("testsnap", "%s: no such folder (a folder name is taken literally, not as a pattern)", dir);
  char pat[2 * 1024 + 64];
  size_t k = 0;
  for (const char *c = dir; *c; c++) {
    if (k + 2 >= sizeof pat - 64) pp_usage_error("testsnap", "folder name too long (over 1024 characters)");
    if (strchr("*?[]\\", *c)) pat[k++] = '\\';
    pat[k++] = *c;
  }
  snprintf(pat + k, sizeof pat - k, "/%s", pattern);
  glob_t g;
  if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc != 1)
    pp_usage_error("testsnap", "%s: expected exactly one file '%s'", dir, pattern);
  snprintf(out, len, "%s", g.gl_pathv[0]);
  globfree(&g);
}

/* n rows of `cols` numbers each into v, or into iv as indices in
 * [0, imax) (checked on the value read, before it is narrowed to int). */
static void read_rows(const char *path, int n, int cols, double *v, int *iv, int imax) {
  reader r;
  open_reader(&r, path, "TestSNAP reference file", BIG_FILE);
  for (int k = 0; k < n; k++) {
    if (!next_line(&r, 0)) fail(&r, "file ends after %d of %d rows", k, n);
    if (r.ntok != cols) fail(&r, "expected %d fields, found %d", cols, r.ntok);
    for (int c = 0; c < cols; c++) {
      if (iv) {
        const long long x = integer(&r, r.tok[c], "index");
        if (x < 0 || x >= imax) fail(&r, "neighbour %lld outside 0..%d", x, imax - 1);
        iv[k * cols + c] = (int)x;
      } else v[k * cols + c] = num(&r, r.tok[c], "value");
    }
  }
  if (next_line(&r, 0)) fail(&r, "more than the %d rows expected", n);
  close_reader(&r);
}

void snap_read_testsnap(const char *dir, snap_tsref *t) {
  char path[1300];
  reader r;
  memset(t, 0, sizeof *t);
  snap_find_file(dir, "meta.txt", path, sizeof path);
  open_reader(&r, path, "TestSNAP meta file", SMALL_FILE);
  int got = 0;
  while (next_line(&r, 0)) {
    if (r.ntok != 2) fail(&r, "expected 'key value'");
    if (!strcmp(r.tok[0], "rcutfac")) t->rcutfac = num(&r, r.tok[1], "rcutfac"), got |= 1;
    else {
      const long long v = integer(&r, r.tok[1], r.tok[0]);
      if (v < 0 || v > 1000000) fail(&r, "%s = %lld is out of range", r.tok[0], v);
      if (!strcmp(r.tok[0], "nlocal")) t->nlocal = (int)v, got |= 2;
      else if (!strcmp(r.tok[0], "nghost")) t->nghost = (int)v, got |= 4;
      else if (!strcmp(r.tok[0], "ninside")) t->ninside = (int)v, got |= 8;
      else fail(&r, "unknown key '%s'", r.tok[0]);
    }
  }
  close_reader(&r);
  r.line = 0;
  if (got != 15 || t->nlocal < 1 || t->ninside < 1 || t->rcutfac <= 0)
    fail(&r, "needs rcutfac > 0, nlocal >= 1, nghost, ninside >= 1");
  if ((long long)t->nlocal * t->ninside > MAX_ATOMS)
    fail(&r, "nlocal x ninside = %lld neighbours: at most %d", (long long)t->nlocal * t->ninside, MAX_ATOMS);
  snap_find_file(dir, "beta_*.txt", path, sizeof path);
  open_reader(&r, path, "TestSNAP coefficient file", SMALL_FILE);
  if (!next_line(&r, 0) || r.ntok != 2 || strcmp(r.tok[0], "twojmax")) fail(&r, "expected 'twojmax N'");
  const long long J = integer(&r, r.tok[1], "twojmax");
  if (J < 0 || J % 2 || J > SNAP_TWOJMAX_MAX) fail(&r, "twojmax = %lld: must be an even integer from 0 to %d", J, SNAP_TWOJMAX_MAX);
  t->twojmax = (int)J;
  const int nc = snap_ncoeff(t->twojmax) + 1;
  t->coeff = malloc(sizeof(double) * (size_t)nc);
  for (int k = 0; k < nc; k++) {
    if (!next_line(&r, 0)) fail(&r, "file ends after %d of %d coefficients", k, nc);
    if (r.ntok != 1) fail(&r, "expected one coefficient");
    t->coeff[k] = num(&r, r.tok[0], "coefficient");
  }
  if (next_line(&r, 0)) fail(&r, "more than the %d coefficients of twojmax %d", nc, t->twojmax);
  close_reader(&r);
  const int np = t->nlocal * t->ninside, nall = t->nlocal + t->nghost;
  t->jlist = malloc(sizeof(int) * (size_t)np);
  t->rij = malloc(sizeof(double) * 3 * (size_t)np);
  t->fj = malloc(sizeof(double) * 3 * (size_t)nall);
  snap_find_file(dir, "jlist.txt", path, sizeof path);
  read_rows(path, np, 1, NULL, t->jlist, nall);
  snap_find_file(dir, "rij.txt", path, sizeof path);
  read_rows(path, np, 3, t->rij, NULL, 0);
  snap_find_file(dir, "fj_*.txt", path, sizeof path);
  read_rows(path, nall, 3, t->fj, NULL, 0);
}
