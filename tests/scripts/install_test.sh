#!/usr/bin/env bash
# What `cmake --install` and `cpack -G DEB` give, from a build tree: the binary, the man page and
# the completion scripts in the places each tool looks, the .deb holding the same files under
# /usr, and the completions completing what the binary accepts: bash always, fish (complete -C)
# and zsh (a real interactive zsh driven through zpty) when they are installed.
#   install_test.sh BUILD_DIR
set -uo pipefail
build="$(cd "$1" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

DESTDIR="$tmp/local" cmake --install "$build" --prefix /usr/local > "$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; bad "cmake --install failed"; }
for f in bin/pipesim share/man/man1/pipesim.1.gz share/bash-completion/completions/pipesim \
  share/zsh/site-functions/_pipesim share/fish/vendor_completions.d/pipesim.fish; do
  [ -s "$tmp/local/usr/local/$f" ] || bad "cmake --install did not install $f"
done
"$tmp/local/usr/local/bin/pipesim" --version | grep -q '^pipesim ' || bad "the installed binary does not run"
# The probe, on PATH as pipesim-probe, finds its modules through the link.
[ -L "$tmp/local/usr/local/bin/pipesim-probe" ] || bad "cmake --install did not link bin/pipesim-probe"
probe="$(readlink -f "$tmp/local/usr/local/bin/pipesim-probe")"
[ -x "$probe" ] && [ -s "$(dirname "$probe")/lib/loader_timing.py" ] ||
  bad "bin/pipesim-probe does not lead to the probe with its modules beside it"

# The man page (runs of spaces as one: groff justifies lines): every command's help, the exit status,
# the environment, an example per command.
page="$(zcat "$tmp/local/usr/local/share/man/man1/pipesim.1.gz" | groff -man -Tascii -P-cbou 2> /dev/null | tr -s ' ')"
for want in 'pipesim diagnose' 'pipesim calibrate decode' 'pipesim completions' 'EXIT STATUS' 'internal error' \
  ENVIRONMENT NO_COLOR 'attribute caching --device-cached' 'init dgx-h100'; do
  grep -qF -e "$want" <<< "$page" || bad "the man page lacks '$want'"
done

# The .deb: the same files under /usr, zsh's in the folder packages use, no dependencies.
(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb" > "$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log"; bad "cpack -G DEB failed"; }
deb="$(ls "$tmp"/deb/pipesim_*.deb 2> /dev/null | head -1)"
if [ -z "$deb" ]; then
  bad "cpack wrote no .deb"
else
  listing="$(dpkg-deb -c "$deb")"
  for f in usr/bin/pipesim usr/share/man/man1/pipesim.1.gz usr/share/bash-completion/completions/pipesim \
    usr/share/zsh/vendor-completions/_pipesim usr/share/fish/vendor_completions.d/pipesim.fish \
    usr/share/pipesim/pipesim-probe.py usr/share/pipesim/lib/loader_timing.py usr/bin/pipesim-probe; do
    grep -Eq "\./$f( -> .*)?\$" <<< "$listing" || bad "the .deb lacks /$f"
  done
  [ -z "$(dpkg-deb -f "$deb" Depends)" ] || bad "the .deb has dependencies: $(dpkg-deb -f "$deb" Depends)"
  dpkg-deb -x "$deb" "$tmp/x" && "$tmp/x/usr/bin/pipesim" presets > /dev/null || bad "the packaged binary does not run"
fi

# bash: the words of a command line as bash splits them (at '=' too), and what TAB offers.
bash_script="$tmp/local/usr/local/share/bash-completion/completions/pipesim"
check_bash() {
  local want="$1"
  shift
  local got
  got="$(bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pipesim; echo "${COMPREPLY[*]}"' \
    _ "$bash_script" "$@")"
  [ "$got" = "$want" ] || bad "bash: [$*] offers '$got', expected '$want'"
}
check_bash "diagnose" pipesim di
check_bash "--format" pipesim diagnose --form
check_bash "table json csv markdown junit github" pipesim check --format ''
check_bash "json" pipesim diagnose --format = j
check_bash "p4d-24xlarge+nvme-gen3 p4d-24xlarge+nvme-gen4 p4d-24xlarge+nvme-gen5" pipesim diagnose p4d-24xlarge+nvme-gen
check_bash "pipeline.batch_size=" pipesim sweep --set pipeline.ba
check_bash "min_utilization=" pipesim check --require min_u
check_bash "decode storage memory loop" pipesim calibrate ''
check_bash "toml json" pipesim calibrate decode --format ''
check_bash "calibrate" pipesim help cal
check_bash "h100-pcie h100-sxm" pipesim diagnose --plot x.svg --set pipeline.batch_size = 8 h100-
check_bash "bash zsh fish" pipesim completions ''
check_bash "nvme-gen3 nvme-gen4 nvme-gen5" pipesim init p4d-24xlarge nvme-
check_bash "" pipesim sweep --batch ''

# fish: complete -C gives what TAB would.
if command -v fish > /dev/null; then
  check_fish() {
    local want="$1" line="$2" got
    got="$(fish -c 'source $argv[1]; function pipesim; end; complete -C $argv[2] | string split -f1 \t | string join " "' \
      "$tmp/local/usr/local/share/fish/vendor_completions.d/pipesim.fish" "$line")"
    [ "$got" = "$want" ] || bad "fish: [$line] offers '$got', expected '$want'"
  }
  check_fish "diagnose" "pipesim di"
  check_fish "csv json markdown table" "pipesim diagnose --format "
  check_fish "p4d-24xlarge+nvme-gen3 p4d-24xlarge+nvme-gen4 p4d-24xlarge+nvme-gen5" "pipesim diagnose p4d-24xlarge+nvme-gen"
  check_fish "pipeline.batch_size=" "pipesim sweep --set pipeline.ba"
  check_fish "json toml" "pipesim calibrate decode --format "
  check_fish "h100-pcie" "pipesim diagnose --plot x.svg --set pipeline.batch_size=8 h100-p"
else
  echo "fish is not installed: its completions are not checked"
fi

# zsh: an interactive zsh in a pseudo-terminal, TAB pressed, and the line it leaves printed.
if command -v zsh > /dev/null; then
  mkdir -p "$tmp/zfunc"
  cp "$tmp/local/usr/local/share/zsh/site-functions/_pipesim" "$tmp/zfunc/"
  cat > "$tmp/drive.zsh" << 'ZSH'
zmodload zsh/zpty
zpty -b z zsh -f -i
zpty -w z "unset zle_bracketed_paste; PS1='READY> '; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -d $1/.zcompdump; pipesim() { :; }"
# The prompt, not the echo of the line that sets it (there it follows a quote).
zpty -r z out "*[^']READY> *"
shift
nl=$'\n'
for line in "$@"; do
  # TAB, then go to the start of the line and print it (print joins its words with one space).
  zpty -w -n z "$line"$'\t'$'\C-a''print -r -- "LINE:"'$'\n'
  zpty -r z out "*${nl}LINE:*${nl}*READY> *"
  got=${${(M)${(f)out}:#LINE:*}[-1]}
  print -r -- "${${got#LINE:}%$'\r'}"
done
ZSH
  mapfile -t zgot < <(timeout 120 zsh -f "$tmp/drive.zsh" "$tmp/zfunc" "pipesim diag" "pipesim sweep --set pipeline.ba" \
    "pipesim diagnose p4d-24xlarge+nvme-gen4+resnet50-imagenet-a" "pipesim calibrate dec" "pipesim check --require min_u" \
    "pipesim presets h100-s")
  zwant=("pipesim diagnose" "pipesim sweep --set pipeline.batch_size=" \
    "pipesim diagnose p4d-24xlarge+nvme-gen4+resnet50-imagenet-amp" "pipesim calibrate decode" \
    "pipesim check --require min_utilization=" "pipesim presets h100-sxm")
  for i in "${!zwant[@]}"; do
    [ "${zgot[$i]-}" = "${zwant[$i]}" ] || bad "zsh: TAB left '${zgot[$i]-}', expected '${zwant[$i]}'"
  done
else
  echo "zsh is not installed: its completions are not checked"
fi

[ "$fail" -eq 0 ] && echo "install: ok"
exit "$fail"
