// Package completion writes shell completion scripts (bash, zsh, fish) for
// a command-line program made of subcommands, each with its flags: the
// program's name completes a subcommand, a subcommand completes its flags,
// and everything else completes file names.
package completion

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// flagName is a flag in a synopsis or a flag line: "--pin", "-p".
var flagName = regexp.MustCompile(`(?:^|[\s\[(|,/])(--[a-z][a-z-]+|-[a-zA-Z])\b`)

// FlagsFromHelp lists the flags a help text names in its first line (the
// synopsis) and in its flag lines (lines that start with "-" after the
// indentation, up to the two spaces before the description), in order,
// once each. Flags named in prose and examples are not taken.
func FlagsFromHelp(help string) []string {
	var out []string
	seen := map[string]bool{}
	for i, line := range strings.Split(help, "\n") {
		if line = strings.TrimSpace(line); i > 0 {
			if !strings.HasPrefix(line, "-") {
				continue
			}
			line, _, _ = strings.Cut(line, "  ")
		}
		for _, m := range flagName.FindAllStringSubmatch(line, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				out = append(out, m[1])
			}
		}
	}
	return out
}

// Command is one subcommand and the flags it takes ("--pin", "-p").
type Command struct {
	Name    string
	Summary string
	Flags   []string
}

// Shells lists the shells Script writes for.
var Shells = []string{"bash", "zsh", "fish"}

// Script returns the completion script for shell; topics are the names
// "help" completes besides the commands.
func Script(prog, shell string, cmds []Command, topics []string) (string, error) {
	cmds = append([]Command(nil), cmds...)
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	switch shell {
	case "bash":
		return bash(prog, cmds, topics), nil
	case "zsh":
		return "#compdef " + prog + "\nautoload -U +X bashcompinit && bashcompinit\n" + bash(prog, cmds, topics), nil
	case "fish":
		return fish(prog, cmds, topics), nil
	}
	return "", fmt.Errorf("no completion for shell %q: want %s", shell, strings.Join(Shells, ", "))
}

func names(cmds []Command) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Name
	}
	return out
}

func ident(prog string) string { return strings.NewReplacer("-", "_", ".", "_").Replace(prog) }

func bash(prog string, cmds []Command, topics []string) string {
	var b strings.Builder
	names := names(cmds)
	fn := "_" + ident(prog)
	fmt.Fprintf(&b, "# %s completion for bash and zsh: source it, or put it in the completions directory.\n", prog)
	fmt.Fprintf(&b, "%s() {\n  local cur=\"${COMP_WORDS[COMP_CWORD]}\" sub=\"${COMP_WORDS[1]}\"\n", fn)
	fmt.Fprintf(&b, "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", strings.Join(names, " "))
	b.WriteString("  local flags=\"\"\n  case \"$sub\" in\n")
	for _, c := range cmds {
		if c.Name == "help" || c.Name == "completion" {
			continue
		}
		fmt.Fprintf(&b, "    %s) flags=%q ;;\n", c.Name, strings.Join(c.Flags, " "))
	}
	fmt.Fprintf(&b, "    help) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", strings.Join(append(names, topics...), " "))
	fmt.Fprintf(&b, "    completion) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", strings.Join(Shells, " "))
	b.WriteString("  esac\n  if [[ \"$cur\" == -* ]]; then\n    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n")
	fmt.Fprintf(&b, "complete -o filenames -F %s %s\n", fn, prog)
	return b.String()
}

func fish(prog string, cmds []Command, topics []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s completion for fish: put it in ~/.config/fish/completions/%s.fish\n", prog, prog)
	fmt.Fprintf(&b, "complete -c %s -f -n __fish_use_subcommand\n", prog)
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c %s -f -n __fish_use_subcommand -a %s -d %s\n", prog, c.Name, fishQuote(c.Summary))
	}
	for _, c := range cmds {
		if c.Name == "help" {
			for _, t := range append(names(cmds), topics...) {
				fmt.Fprintf(&b, "complete -c %s -f -n '__fish_seen_subcommand_from help' -a %s\n", prog, t)
			}
		}
		if c.Name == "completion" {
			fmt.Fprintf(&b, "complete -c %s -f -n '__fish_seen_subcommand_from completion' -a '%s'\n", prog, strings.Join(Shells, " "))
		}
		for _, f := range c.Flags {
			opt := "-l " + strings.TrimPrefix(f, "--")
			if !strings.HasPrefix(f, "--") {
				opt = "-s " + strings.TrimPrefix(f, "-")
			}
			fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from %s' %s\n", prog, c.Name, opt)
		}
	}
	return b.String()
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
