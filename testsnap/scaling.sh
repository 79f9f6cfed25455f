# testsnap's scaling series (its manifest's [scaling] series), sourced by
# validate/scaling-run.sh once per rank count $p: `series NAME P ARGS...` runs one.
# Every step is a sample (--steps, not $samples).
# Env: TS_CELLS (default 20: 16000 atoms), TS_STEPS (default 20).
TS_CELLS=${TS_CELLS:-20}
TS_STEPS=${TS_STEPS:-20}
j14=$PP_INPUTS/testsnap/W_2J14_2000_disp
series w2j14-lattice"$TS_CELLS"-strong "$p" --lattice "$TS_CELLS" \
  --coeff "$j14/W_2J14_TestSNAP.snapcoeff" --param "$j14/W_2J14_TestSNAP.snapparam" --steps "$TS_STEPS"
