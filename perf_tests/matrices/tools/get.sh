#!/bin/bash
# get.sh NAME OWNER/REPO PATH [COMMIT]  -> stage/NAME.<ext> and provenance line
name=$1; repo=$2; path=$3; commit=${4:-}
G=/work/.mirror/${repo/\//+}/repo; [ -d "$G/.git" ] && G=$G/.git
[ -z "$commit" ] && commit=$(git --git-dir=$G rev-parse HEAD)
ext=${path##*/}; ext=${ext#*.}
cd /work/realmats/stage
git --git-dir=$G show "$commit:$path" > "$name.$ext" || { echo "FAILED $name"; rm -f "$name.$ext"; exit 1; }
if head -c 40 "$name.$ext" | grep -q "version https://git-lfs"; then echo "LFS $name"; rm -f "$name.$ext"; exit 1; fi
grep -v "^$name	" prov.tsv > prov.tmp 2>/dev/null; mv prov.tmp prov.tsv
echo -e "$name\t$repo\t$path\t$commit" >> prov.tsv
ls -l "$name.$ext" | awk '{print $5, $9}'
