# cgsolve's scaling series (its manifest's [scaling] series), sourced by
# validate/scaling-run.sh once per rank count $p: `series NAME P ARGS...` runs one.
# Env: CG_HALOS (the --halo paths side by side, default "auto host": auto is the
# series without suffix, the others get -halo-<path>; every series names --overlap:
# off but in the overlap series), CG_EXTRA (default 1: also n255-strong with
# --overlap on, with --cg-variant chronopoulos-gear, and with both, on the first
# path of CG_HALOS; the series of path P other than auto are named
# n255-strong-halo-P-overlap and so on), CG_OVERLAP_HALOS (the paths that get the
# --overlap on series, default the first of CG_HALOS), CG_N325 (default 1: the
# n325 deck too).
CG_HALOS=${CG_HALOS:-auto host}
CG_EXTRA=${CG_EXTRA:-1}
n255=$PP_INPUTS/minife/n255.deck
for halo in $CG_HALOS; do
  sfx=; [ "$halo" = auto ] || sfx=-halo-$halo
  series n255-strong$sfx "$p" $samples --deck "$n255" --halo "$halo" --overlap off
  series n255-weak$sfx "$p" $samples --size 255 --scaling weak --halo "$halo" --overlap off
done
[ "${CG_N325:-1}" = 1 ] && series n325-strong "$p" $samples --deck "$PP_INPUTS/minife/n325.deck" --overlap off
if [ "$CG_EXTRA" = 1 ]; then
  h0=${CG_HALOS%% *}
  for halo in ${CG_OVERLAP_HALOS:-$h0}; do
    sfx=; [ "$halo" = auto ] || sfx=-halo-$halo
    series n255-strong$sfx-overlap "$p" $samples --deck "$n255" --halo "$halo" --overlap on
  done
  sfx=; [ "$h0" = auto ] || sfx=-halo-$h0
  series n255-strong$sfx-cg1 "$p" $samples --deck "$n255" --halo "$h0" --overlap off \
    --cg-variant chronopoulos-gear
  series n255-strong$sfx-cg1-overlap "$p" $samples --deck "$n255" --halo "$h0" --overlap on \
    --cg-variant chronopoulos-gear
fi
