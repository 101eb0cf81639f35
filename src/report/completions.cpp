#include "report/completions.hpp"

#include <fmt/format.h>

#include <utility>

namespace pipesim {

namespace {

// A command with the path that reaches it: "" for pipesim itself, "calibrate/decode".
struct Node {
  std::string path;
  const CommandCompletion* command;
};

void walk(const CommandCompletion& c, const std::string& path, std::vector<Node>& out) {
  out.push_back({path, &c});
  for (const auto& s : c.subcommands) walk(s, path.empty() ? s.name : path + "/" + s.name, out);
}

std::vector<Node> nodes(const CompletionData& d) {
  std::vector<Node> out;
  walk(d.root, "", out);
  return out;
}

std::string joined(const std::vector<std::string>& words, std::string_view separator = " ") {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : std::string(separator)) + w;
  return out;
}

// Text inside single quotes of a POSIX shell (bash and zsh).
std::string sh_quote(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Text inside fish's single quotes.
std::string fish_quote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::vector<std::string> subcommand_names(const CommandCompletion& c) {
  std::vector<std::string> names;
  for (const auto& s : c.subcommands) names.push_back(s.name);
  return names;
}

// The kind word the bash and fish scripts switch on.
std::string kind_word(Completes k, const std::vector<std::string>& choices) {
  switch (k) {
    case Completes::Nothing:
      return "";
    case Completes::Text:
      return "text";
    case Completes::File:
      return "file";
    case Completes::Dir:
      return "dir";
    case Completes::Scenario:
      return "scenario";
    case Completes::Preset:
      return "preset";
    case Completes::KeyAssign:
      return "keyassign";
    case Completes::Key:
      return "key";
    case Completes::Requirement:
      return "requirement";
    case Completes::Choice:
      return "choice " + joined(choices);
  }
  return "";
}

std::string positional_word(const CommandCompletion& c) {
  if (!c.subcommands.empty()) return "choice " + joined(subcommand_names(c)) + (c.name.empty() ? " help" : "");
  return kind_word(c.positional, c.positional_choices);
}

std::string bash(const CompletionData& d) {
  const auto all = nodes(d);
  std::string s = fmt::format(
      "# bash completion for pipesim, written by `pipesim completions bash` (pipesim {}).\n"
      "# Source it, or install it as .../bash-completion/completions/pipesim.\n\n",
      d.version);
  s += "_pipesim_presets=" + sh_quote(joined(d.presets)) + "\n";
  s += "_pipesim_keys=" + sh_quote(joined(d.field_keys)) + "\n";
  s += "_pipesim_requirements=" + sh_quote(joined(d.requirement_keys)) + "\n\n";

  s += "# Whether word $2 names a subcommand of the command at path $1.\n_pipesim_child() {\n  case \"$1>$2\" in\n";
  std::vector<std::string> children;
  for (const auto& n : all)
    for (const auto& sub : n.command->subcommands) children.push_back(sh_quote(n.path + ">" + sub.name));
  s += "    " + joined(children, "|") + ") return 0 ;;\n  esac\n  return 1\n}\n\n";

  s += "# What the value of option $2 of the command at path $1 completes to (nothing for a flag).\n"
       "_pipesim_value() {\n  case \"$1>$2\" in\n";
  for (const auto& n : all)
    for (const auto& o : n.command->options) {
      const std::string kind = kind_word(o.value, o.choices);
      if (kind.empty()) continue;
      std::vector<std::string> pats;
      for (const auto& name : o.names) pats.push_back(sh_quote(n.path + ">" + name));
      s += "    " + joined(pats, "|") + ") echo " + sh_quote(kind) + " ;;\n";
    }
  s += "  esac\n}\n\n";

  s += "_pipesim_options() {\n  case $1 in\n";
  for (const auto& n : all) {
    std::vector<std::string> names;
    for (const auto& o : n.command->options) names.insert(names.end(), o.names.begin(), o.names.end());
    s += "    " + sh_quote(n.path) + ") echo " + sh_quote(joined(names)) + " ;;\n";
  }
  s += "  esac\n}\n\n";

  s += "_pipesim_positional() {\n  case $1 in\n";
  for (const auto& n : all) {
    const std::string kind = positional_word(*n.command);
    if (!kind.empty()) s += "    " + sh_quote(n.path) + ") echo " + sh_quote(kind) + " ;;\n";
  }
  s += "  esac\n}\n\n";

  s += R"SH(# Fills COMPREPLY with what kind $1 offers for the word $2.
_pipesim_fill() {
  local kind=$1 cur=$2
  case $kind in
    file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    dir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    keyassign) compopt -o nospace 2>/dev/null; mapfile -t COMPREPLY < <(compgen -W "$_pipesim_keys" -S = -- "$cur") ;;
    key) mapfile -t COMPREPLY < <(compgen -W "$_pipesim_keys" -- "$cur") ;;
    requirement) compopt -o nospace 2>/dev/null; mapfile -t COMPREPLY < <(compgen -W "$_pipesim_requirements" -S = -- "$cur") ;;
    preset) mapfile -t COMPREPLY < <(compgen -W "$_pipesim_presets" -- "$cur") ;;
    scenario)
      # A preset, also after '+' (presets composed), a TOML file, a folder, or '-' (stdin).
      local head='' tail=$cur
      if [[ $cur == *+* ]]; then head=${cur%+*}+; tail=${cur##*+}; fi
      mapfile -t COMPREPLY < <(compgen -P "$head" -W "$_pipesim_presets" -- "$tail")
      if [[ -z $head ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.toml' -- "$cur"; compgen -d -- "$cur")
        [[ -z $cur ]] && COMPREPLY+=(-)
      fi ;;
    choice\ *) mapfile -t COMPREPLY < <(compgen -W "${kind#choice }" -- "$cur") ;;
  esac
}

_pipesim() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev='' i=$((COMP_CWORD - 1))
  (( i >= 1 )) && prev=${COMP_WORDS[i]}
  # bash splits --option=value at '='.
  if [[ $cur == = ]]; then cur=''; elif [[ $prev == = && i -ge 2 ]]; then prev=${COMP_WORDS[i - 1]}; fi
  COMPREPLY=()
  local path='' w j skip=0 kind
  for ((j = 1; j < COMP_CWORD; j++)); do
    w=${COMP_WORDS[j]}
    if [[ $w == -* ]]; then
      [[ -n $(_pipesim_value "$path" "$w") ]] && skip=1
      continue
    fi
    [[ $w == = ]] && continue
    if (( skip )); then skip=0; continue; fi
    [[ -z $path && $w == help ]] && continue
    if _pipesim_child "$path" "$w"; then path=${path:+$path/}$w; fi
  done
  kind=$(_pipesim_value "$path" "$prev")
  if [[ -n $kind ]]; then
    _pipesim_fill "$kind" "$cur"
    return 0
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_pipesim_options "$path")" -- "$cur")
    return 0
  fi
  kind=$(_pipesim_positional "$path")
  [[ -n $kind ]] && _pipesim_fill "$kind" "$cur"
  return 0
}
complete -F _pipesim pipesim
)SH";
  return s;
}

// A description inside zsh's [...] in single quotes.
std::string zsh_help(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string zsh_action(Completes k, const std::vector<std::string>& choices) {
  switch (k) {
    case Completes::Nothing:
    case Completes::Text:
      return " ";
    case Completes::File:
      return "_files";
    case Completes::Dir:
      return "_files -/";
    case Completes::Scenario:
      return "_pipesim_scenario";
    case Completes::Preset:
      return "_pipesim_preset";
    case Completes::KeyAssign:
      return "_pipesim_keyassign";
    case Completes::Key:
      return "_pipesim_key";
    case Completes::Requirement:
      return "_pipesim_requirement";
    case Completes::Choice:
      return "(" + joined(choices) + ")";
  }
  return " ";
}

std::string zsh_function_name(const std::string& path) {
  std::string name = "_pipesim_cmd";
  if (!path.empty()) name += "_";
  for (char c : path) name += (c == '/' || c == '-') ? '_' : c;
  return name;
}

std::string zsh_describe(const CommandCompletion& c, bool with_help) {
  std::vector<std::string> items;
  for (const auto& sub : c.subcommands) items.push_back(sh_quote(sub.name + ":" + sub.help));
  if (with_help) items.push_back(sh_quote("help:Print a command's help"));
  return "  local -a cmds\n  cmds=(" + joined(items, "\n    ") + ")\n";
}

std::string zsh(const CompletionData& d) {
  std::string s = fmt::format(
      "#compdef pipesim\n"
      "# zsh completion for pipesim, written by `pipesim completions zsh` (pipesim {}).\n"
      "# Install it as _pipesim in a folder of $fpath, or source it after compinit.\n\n",
      d.version);
  s += "_pipesim_presets=(" + joined(d.presets) + ")\n";
  s += "_pipesim_keys=(" + joined(d.field_keys) + ")\n";
  s += "_pipesim_requirements=(" + joined(d.requirement_keys) + ")\n\n";
  s += R"SH(_pipesim_scenario() {
  if compset -P '*+'; then
    compadd -a _pipesim_presets
  else
    _alternative 'presets:preset:compadd -a _pipesim_presets' 'files:TOML file:_files -g "*.toml"' 'stdin:standard input:(-)'
  fi
}
_pipesim_preset() { compadd -a _pipesim_presets }
_pipesim_keyassign() { compadd -S = -a _pipesim_keys }
_pipesim_key() { compadd -a _pipesim_keys }
_pipesim_requirement() { compadd -S = -a _pipesim_requirements }

)SH";
  for (const auto& n : nodes(d)) {
    const CommandCompletion& c = *n.command;
    s += zsh_function_name(n.path) + "() {\n";
    if (!c.subcommands.empty()) {
      std::vector<std::string> opts;
      for (const auto& o : c.options) opts.insert(opts.end(), o.names.begin(), o.names.end());
      s += zsh_describe(c, n.path.empty());
      s += "  if (( CURRENT == 2 )); then\n";
      s += "    if [[ $PREFIX == -* ]]; then compadd -- " + joined(opts) + "; else _describe -t commands " +
           sh_quote(n.path.empty() ? "pipesim command" : c.name + " command") + " cmds; fi\n    return\n  fi\n";
      if (n.path.empty())
        s += "  if [[ ${words[2]} == help ]]; then shift words; (( CURRENT-- )); _pipesim_cmd; return; fi\n";
      s += "  local next=" + zsh_function_name(n.path) + "_${words[2]//-/_}\n";
      s += "  shift words; (( CURRENT-- ))\n  (( $+functions[$next] )) && $next\n}\n\n";
      continue;
    }
    std::vector<std::string> specs;
    for (const auto& o : c.options) {
      const std::string help = "[" + zsh_help(o.help) + "]";
      const bool takes = o.value != Completes::Nothing;
      std::string exclusion;
      if (o.names.size() > 1 && !o.repeatable) exclusion = "(" + joined(o.names) + ")";
      for (const auto& name : o.names) {
        std::string spec = (o.repeatable ? "*" : exclusion) + name;
        if (takes) spec += name.size() == 2 ? "+" : "=";
        spec += help;
        if (takes) spec += ":value:" + zsh_action(o.value, o.choices);
        specs.push_back(sh_quote(spec));
      }
    }
    if (c.positional != Completes::Nothing)
      specs.push_back(sh_quote(std::string(c.positional_many ? "*" : "1") +
                               ":argument:" + zsh_action(c.positional, c.positional_choices)));
    s += "  _arguments -s -S \\\n    " + joined(specs, " \\\n    ") + "\n}\n\n";
  }
  s += "_pipesim() { _pipesim_cmd \"$@\" }\n\n# Loaded by compinit from $fpath, or sourced.\nif [[ "
       "$zsh_eval_context[-1] == loadautofunc ]]; then\n"
       "  _pipesim \"$@\"\nelse\n  compdef _pipesim pipesim\nfi\n";
  return s;
}

// What fish offers for a value: " -a '(function)'" or the file list (" -F"); `option`: the value
// follows an option (-x: it takes one, and files are not offered besides).
std::string fish_candidates(Completes k, const std::vector<std::string>& choices, bool option) {
  const std::string x = option ? " -x" : "";
  switch (k) {
    case Completes::Nothing:
    case Completes::Text:
      return "";
    case Completes::File:
      return " -F";
    case Completes::Dir:
      return x + " -a '(__fish_complete_directories)'";
    case Completes::Scenario:
      return x + " -a '(__pipesim_scenarios)'";
    case Completes::Preset:
      return x + " -a '(__pipesim_presets)'";
    case Completes::KeyAssign:
      return x + " -a '(__pipesim_keyassign)'";
    case Completes::Key:
      return x + " -a '(__pipesim_keys)'";
    case Completes::Requirement:
      return x + " -a '(__pipesim_requirements)'";
    case Completes::Choice:
      return x + " -a " + fish_quote(joined(choices));
  }
  return "";
}

std::string fish(const CompletionData& d) {
  std::string s = fmt::format(
      "# fish completion for pipesim, written by `pipesim completions fish` (pipesim {}).\n"
      "# Install it as pipesim.fish in a folder of $fish_complete_path, or source it.\n\n",
      d.version);
  s += "complete -c pipesim -e\ncomplete -c pipesim -f\n\n";
  s += "function __pipesim_presets\n  printf '%s\\n' " + joined(d.presets) + "\nend\n";
  s += "function __pipesim_keys\n  printf '%s\\n' " + joined(d.field_keys) + "\nend\n";
  s += "function __pipesim_requirements\n  printf '%s=\\n' " + joined(d.requirement_keys) + "\nend\n\n";
  s += "# Whether word $2 names a subcommand of the command at path $1.\nfunction __pipesim_child\n  switch "
       "\"$argv[1]>$argv[2]\"\n    case";
  for (const auto& n : nodes(d))
    for (const auto& sub : n.command->subcommands) s += fmt::format(" {}", fish_quote(n.path + ">" + sub.name));
  s += "\n      return 0\n  end\n  return 1\nend\n\n";
  s += "# Whether option $2 of the command at path $1 takes a value.\nfunction __pipesim_takes_value\n  switch "
       "\"$argv[1]>$argv[2]\"\n    case";
  for (const auto& n : nodes(d))
    for (const auto& o : n.command->options)
      if (o.value != Completes::Nothing)
        for (const auto& name : o.names) s += fmt::format(" {}", fish_quote(n.path + ">" + name));
  s += "\n      return 0\n  end\n  return 1\nend\n\n";
  s += R"SH(# The command path of the command line so far: '' for pipesim itself, 'calibrate/decode'.
function __pipesim_path
  set -l tokens (commandline -opc)
  set -e tokens[1]
  set -l path ''
  set -l skip 0
  for t in $tokens
    if string match -q -- '-*' $t
      if not string match -q -- '*=*' $t; and __pipesim_takes_value "$path" $t
        set skip 1
      end
      continue
    end
    if test $skip = 1
      set skip 0
      continue
    end
    if test -z "$path" -a "$t" = help
      continue
    end
    if __pipesim_child "$path" $t
      if test -z "$path"
        set path $t
      else
        set path "$path/$t"
      end
    end
  end
  echo $path
end

function __pipesim_is
  test (__pipesim_path) = "$argv[1]"
end

# A preset (also after '+': presets composed), a TOML file, a folder, or '-' (stdin).
function __pipesim_scenarios
  set -l cur (commandline -ct)
  set -l head ''
  if string match -q -- '*+*' "$cur"
    set head (string replace -r -- '[^+]*$' '' "$cur")
  end
  for p in (__pipesim_presets)
    echo $head$p
  end
  if test -z "$head"
    __fish_complete_suffix .toml
    echo -
  end
end

function __pipesim_keyassign
  for k in (__pipesim_keys)
    echo $k=
  end
end

)SH";
  for (const auto& n : nodes(d)) {
    const CommandCompletion& c = *n.command;
    const std::string cond = "-n " + fish_quote("__pipesim_is " + fish_quote(n.path));
    for (const auto& sub : c.subcommands)
      s += "complete -c pipesim " + cond + " -a " + sub.name + " -d " + fish_quote(sub.help) + "\n";
    if (n.path.empty())
      s += "complete -c pipesim " + cond + " -a help -d " + fish_quote("Print a command's help") + "\n";
    for (const auto& o : c.options) {
      std::string line = "complete -c pipesim " + cond;
      for (const auto& name : o.names)
        line += (name.size() == 2 ? " -s " : " -l ") + name.substr(name.size() == 2 ? 1 : 2);
      if (o.value == Completes::Text) line += " -x";
      if (o.value == Completes::File) line += " -r";
      line += fish_candidates(o.value, o.choices, true);
      s += line + " -d " + fish_quote(o.help) + "\n";
    }
    if (c.positional != Completes::Nothing && c.positional != Completes::Text)
      s += "complete -c pipesim " + cond + fish_candidates(c.positional, c.positional_choices, false) + "\n";
  }
  return s;
}

}  // namespace

std::vector<std::string_view> completion_shells() { return {"bash", "zsh", "fish"}; }

std::string completion_script(std::string_view shell, const CompletionData& data) {
  if (shell == "bash") return bash(data);
  if (shell == "zsh") return zsh(data);
  if (shell == "fish") return fish(data);
  return {};
}

}  // namespace pipesim
