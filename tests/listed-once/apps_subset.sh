#!/bin/sh
# Fixture of tests/models_listed_once.sh: a subset that says so is not a list.
# the MPI apps (a subset of apps.txt: the others run on one rank)
for app in @APP1@ @APP2@ @APP3@; do echo "$app"; done
for app in @APP3@ @APP2@ @APP1@; do echo "$app"; done # planted
echo "usage: --apps LIST (subset of apps.txt)"
