/* Everything an app driver needs. */
#ifndef PP_PP_H
#define PP_PP_H
#include "pp/buffers.h"
#include "pp/buildinfo.h"
#include "pp/ceiling.h"
#include "pp/cli.h"
#include "pp/device.h"
#include "pp/dispatch.h"
#include "pp/fault.h"
#include "pp/measure.h"
#include "pp/model.h"
#include "pp/mpi.h"
#include "pp/report.h"
#include "pp/rng.h"
#include "pp/row.h"
#include "pp/session.h"
#include "pp/stats.h"
#include "pp/timer.h"
#include "pp/validate.h"
#endif
