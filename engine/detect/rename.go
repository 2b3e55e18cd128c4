package detect

import (
	"sort"
	"strings"
	"unicode"

	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Renames. With the default rules, a REMOVED and an ADDED tool of the same
// server whose descriptors are near-identical once the name is set aside
// are one change: a rename, reported as a MUTATION whose RenamedFrom is the
// old key and whose changes include the name. A rename that also rewrote
// the description (rename-then-poison) shows as what it is: one tool, its
// new name and its new text, side by side with what was approved.
//
// Two descriptors are a rename when, with "name" removed,
//
//   - everything but the description is identical and the descriptions
//     are alike: word-set Jaccard similarity at least RenameDescSimilarity,
//     or, when the tool takes parameters, at least RenameContainment of the
//     approved description's words are still there (text was added); or
//   - the whole descriptors are alike: word-multiset Jaccard similarity at
//     least RenameSimilarity.
//
// Candidates are paired greedily, best score first, ties broken by the old
// and then the new key, so the pairing is deterministic.

// Rename thresholds.
const (
	RenameDescSimilarity = 0.6
	RenameContainment    = 0.8
	RenameSimilarity     = 0.8
	// renamePairCap bounds the candidate pairs compared per server; past
	// it only renames that changed nothing but the name are found.
	renamePairCap = 250000
)

// renameSide is one descriptor prepared for comparison.
type renameSide struct {
	key       string
	rest      string         // canonical JSON of the descriptor without name and description
	descWords map[string]int // description words
	allWords  map[string]int // description and rest words
	hasParams bool
}

func prepareRename(key string, desc *jsonv.Value) renameSide {
	obj := jsonv.Value{Kind: jsonv.Object}
	description := ""
	for _, m := range desc.Members {
		switch m.Key {
		case "name":
		case "description":
			if m.Value.Kind == jsonv.String {
				description = canon.Strip(m.Value.Str)
			} else {
				obj.Members = append(obj.Members, m)
			}
		default:
			obj.Members = append(obj.Members, m)
		}
	}
	rest := string(canon.Encode(&obj))
	side := renameSide{key: key, rest: rest, descWords: words(description)}
	side.allWords = words(description + " " + rest)
	if is, ok := desc.Get("input_schema"); ok {
		if props, ok := is.Get("properties"); ok && props.Kind == jsonv.Object && len(props.Members) > 0 {
			side.hasParams = true
		}
	}
	return side
}

// words counts the lower-case words of s.
func words(s string) map[string]int {
	m := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		m[w]++
	}
	return m
}

// jaccard is |a∩b| / |a∪b| over word sets (multi: over multisets).
func jaccard(a, b map[string]int, multi bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter, union := 0, 0
	for w, x := range a {
		y := b[w]
		if !multi {
			x, y = min(x, 1), min(y, 1)
		}
		inter += min(x, y)
		union += max(x, y)
	}
	for w, y := range b {
		if _, ok := a[w]; !ok {
			if !multi {
				y = 1
			}
			union += y
		}
	}
	return float64(inter) / float64(union)
}

// containment is the share of a's distinct words that b holds.
func containment(a, b map[string]int) float64 {
	if len(a) == 0 {
		return 0
	}
	n := 0
	for w := range a {
		if b[w] > 0 {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// renameScore returns how alike two descriptors are, or 0 when they are
// not a rename.
func renameScore(old, cur *renameSide) float64 {
	if old.rest == cur.rest {
		j := jaccard(old.descWords, cur.descWords, false)
		if j >= RenameDescSimilarity {
			return 1 + j
		}
		if old.hasParams && len(old.descWords) > 0 && containment(old.descWords, cur.descWords) >= RenameContainment {
			return 1 + j
		}
	}
	if j := jaccard(old.allWords, cur.allWords, true); j >= RenameSimilarity {
		return j
	}
	return 0
}

// RenameCandidate is one side of a possible rename: a pinned entry that
// vanished or a scanned tool that appeared, with its descriptor in
// canonical form (keys sorted, strings stripped: a pin entry's
// Descriptor, a scanned descriptor's Tree).
type RenameCandidate struct {
	Key    string
	Server string
	Desc   *jsonv.Value
}

// PairRenames pairs removed pin entries with added tools of the same
// server. It returns old key → new key.
func PairRenames(removed, added []RenameCandidate) map[string]string {
	byServer := map[string][2][]int{}
	for i, pt := range removed {
		g := byServer[pt.Server]
		g[0] = append(g[0], i)
		byServer[pt.Server] = g
	}
	for i, sc := range added {
		g := byServer[sc.Server]
		g[1] = append(g[1], i)
		byServer[sc.Server] = g
	}
	out := map[string]string{}
	servers := make([]string, 0, len(byServer))
	for s := range byServer {
		servers = append(servers, s)
	}
	sort.Strings(servers)
	for _, s := range servers {
		g := byServer[s]
		if len(g[0]) == 0 || len(g[1]) == 0 {
			continue
		}
		olds := make([]renameSide, len(g[0]))
		for k, i := range g[0] {
			olds[k] = prepareRename(removed[i].Key, removed[i].Desc)
		}
		news := make([]renameSide, len(g[1]))
		for k, i := range g[1] {
			news[k] = prepareRename(added[i].Key, added[i].Desc)
		}
		type cand struct {
			o, n  int
			score float64
		}
		var cands []cand
		if len(olds)*len(news) <= renamePairCap {
			for o := range olds {
				for n := range news {
					if sc := renameScore(&olds[o], &news[n]); sc > 0 {
						cands = append(cands, cand{o, n, sc})
					}
				}
			}
		} else {
			// Too many to compare pairwise: pair only descriptors that
			// are identical but for the name.
			idx := map[string][]int{}
			for n := range news {
				k := news[n].rest + "\x00" + descKey(news[n].descWords)
				idx[k] = append(idx[k], n)
			}
			for o := range olds {
				for _, n := range idx[olds[o].rest+"\x00"+descKey(olds[o].descWords)] {
					cands = append(cands, cand{o, n, 2})
				}
			}
		}
		sort.Slice(cands, func(i, j int) bool {
			a, b := cands[i], cands[j]
			if a.score != b.score {
				return a.score > b.score
			}
			if olds[a.o].key != olds[b.o].key {
				return olds[a.o].key < olds[b.o].key
			}
			return news[a.n].key < news[b.n].key
		})
		usedO, usedN := map[int]bool{}, map[int]bool{}
		for _, c := range cands {
			if usedO[c.o] || usedN[c.n] {
				continue
			}
			usedO[c.o], usedN[c.n] = true, true
			out[olds[c.o].key] = news[c.n].key
		}
	}
	return out
}

func descKey(m map[string]int) string {
	ws := make([]string, 0, len(m))
	for w, n := range m {
		ws = append(ws, w+":"+itoa(n))
	}
	sort.Strings(ws)
	return strings.Join(ws, " ")
}
