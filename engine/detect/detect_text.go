package detect

import (
	"regexp"
	"strings"
)

// The English instruction families of the default rules. Every pattern
// reads normalised text (lower case, one space between words, see
// normalize.go); evidence is mapped back to the original.
//
// Two habits keep ordinary documentation clean:
//
//   - verbs that give an order are matched in their base form ("send",
//     "read", "paste"), so a sentence that describes the tool in the third
//     person ("Sends the message", "Reads ~/.ssh/config") is not an order;
//   - each family needs its object, not just its verb: "ignore" needs
//     instructions or rules, "do not tell" needs the user, "send" needs a
//     concrete address and something worth stealing.

// re compiles a pattern in which the placeholders below stand for shared
// alternations.
func re(p string) *regexp.Regexp {
	return regexp.MustCompile(expand.Replace(p))
}

var expand = strings.NewReplacer(
	// people the model answers to
	"{USER}", `(?:the user|the users|users?|the human|humans?|the person|anyone|anybody|the requester|the approver|the operator|the reviewer|them|him|her)`,
	// identifier-shaped tool names: snake_case, dotted or kebab-case
	"{IDENT}", "[`\"']?[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+[`\"']?",
	// up to N words of the same sentence
	"{W}", `[^.!?\n]`,
	// base-form verbs that ask the model to hand data over
	"{GIVE}", `(?:read|open|load|cat|include|paste|copy|attach|upload|send|put|pass|provide|fetch|get|grab|collect|extract|dump|print|insert|add|append|embed|take|give|share|forward|output|type|enter|supply|access|record|store|write|fill|list|hash|encode|use|using|sign in|log in)`,
)

// sentenceOf returns the bounds of the sentence of s around [i, j).
func sentenceOf(s string, i, j int) (int, int) {
	start := 0
	for k := i - 1; k >= 0; k-- {
		c := s[k]
		if c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';') && k+1 < len(s) && s[k+1] == ' ' {
			start = k + 1
			break
		}
	}
	end := len(s)
	for k := j; k < len(s); k++ {
		c := s[k]
		if c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';') && (k+1 == len(s) || s[k+1] == ' ') {
			end = k + 1
			break
		}
	}
	return start, end
}

// hit maps a match in a.norm to the signal result: the original text and
// the detail with the original quoted.
func hit(a *Text, i, j int, detail string) (string, string) {
	ev := strings.TrimLeft(a.original(i, j), ".,;:!? ")
	if ev == "" {
		return "", ""
	}
	if detail != "" {
		detail += ": " + quoteText(ev)
	}
	return clipRunes(ev, 200), detail
}

// --- imperative_opener ---------------------------------------------------

// steeringImperatives open a sentence that directs the reader (the model).
var steeringImperatives = []string{
	"ignore", "disregard", "forget", "override", "always", "never",
	"do not", "don't", "make sure", "ensure", "remember to", "be sure to",
}

// descriptiveAfter are words that, right after "always" or "never", make
// the sentence describe the tool ("Never returns null") instead of steering
// the model.
var descriptiveAfter = map[string]bool{
	"is": true, "are": true, "was": true, "has": true, "be": true, "been": true,
	"null": true, "empty": true, "zero": true, "negative": true,
}

var (
	// overrideObject is what an override imperative targets when it
	// steers the model: instructions, rules, the system or the user.
	overrideObject = regexp.MustCompile(`\b(instructions?|rules?|guidelines?|prompts?|system|polic(y|ies)|context|directions?|constraints?|safety|warnings?|user|previous|prior|above|earlier)\b`)
	// steerTarget is who or what a steering sentence is about: this tool
	// in a global order, other tools, what the user is told, the model's
	// reply. Guidance that protects the user ("Always confirm the address
	// with the user") names the user too, so the user alone is no target.
	steerTarget = re(`\b(this tool|this function|it|this) (first|before|after|again|instead)\b|\bother (tools?|servers?|functions?)\b|\b(tell|mention|reveal|inform|notify|show|let|alert|warn) (\w+ ){0,3}?(the user|users|the human|anyone|anybody|the requester|the approver|the operator)\b|\b(the user|the human) (does not|doesn't|must not|should not|never) (see|know|notice)\b|\byour (reply|replies|response|responses|answer|answers|output|summary|explanation|final answer)\b|\b(every|each|any) (request|response|reply|message|turn|conversation|call|task|time|session|answer)\b|\bsystem prompt\b`)
	// consentGuard is a sentence that makes the order wait for the
	// user's say-so: "unless the user agrees", "ask the user first".
	consentGuard = re(`\b(unless|until|only if|only when|only after|if|when)\b (the )?(user|they|them|you are asked|explicitly)\b{W}{0,25}\b(asks?|agrees?|confirms?|approves?|requests?|says?|wants?|consents?|tells?|explicitly|allows?|permits?)\b|\bask (the user|them|first|before)\b|\bwith the user'?s? (permission|consent|approval|ok|agreement)\b`)
)

func defaultImperativeOpener(a *Text) (string, string) {
	s := a.norm
	for start := 0; start < len(s); {
		_, end := sentenceOf(s, start, start)
		sentence := strings.TrimSpace(s[start:end])
		off := start + strings.Index(s[start:end], sentence)
		start = end
		if sentence == "" {
			continue
		}
		for _, verb := range steeringImperatives {
			if !(strings.HasPrefix(sentence, verb+" ") || sentence == verb) {
				continue
			}
			next := firstWord(sentence[len(verb):])
			switch verb {
			case "always", "never":
				if descriptiveAfter[next] || thirdPerson(next) {
					continue
				}
			case "ignore", "disregard", "forget", "override":
				// "Ignore case when matching" is an option, not an order.
				if !overrideObject.MatchString(sentence) {
					continue
				}
			}
			if verb != "ignore" && verb != "disregard" && verb != "forget" && verb != "override" {
				// "Always pass an absolute path" and "Do not include a
				// trailing slash" guide the caller; steering is about the
				// user, the reply, other tools or this tool's place in
				// every task.
				if !steerTarget.MatchString(sentence) || consentGuard.MatchString(sentence) {
					continue
				}
			}
			ev, _ := hit(a, off, off+len(sentence), "")
			return ev, "sentence opens with imperative '" + verb + "' and steers the model: " + quoteText(ev)
		}
	}
	return "", ""
}

func firstWord(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '\'') })
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// thirdPerson reports a present-tense third-person verb such as "returns".
func thirdPerson(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && w != "this" && w != "its"
}

// --- second_person_model ------------------------------------------------

var secondPerson = []pat{
	P("assistant model ai llm agent chatbot bot; you", `\byou are (now )?(an?|the|my|our) (\w+ ){0,3}(assistant|model|ai|llm|agent|chatbot|bot)\b`),
	P("ai assistant llm language agent", `\bas an? (ai|assistant|llm|language model|ai model|ai agent)\b`),
	P("assistant assistant's ai llm claude chatgpt copilot", `\b(the )?(assistant|ai assistant|ai|llm|claude|chatgpt|copilot)'?s? (should|must|shall|needs to|has to|is required to|is to|will need to|is expected to|is instructed to|may not|must not)\b`),
	// A role prefix opening a line or a comment: "Assistant: also run",
	// "<!-- model: prefer ...".
	P("assistant ai model llm agent claude system", `(^|\n|[.!?] |<!-- ?|\[|\()(assistant|ai|model|llm|agent|claude|system)( instruction| note| directive)?s? ?: ?(also|always|never|do|don't|please|you|ignore|call|use|run|send|read|prefer|include|make|remember|before|after|when|first|then|for|treat|execute|open|copy|forward|upload|delete|add|pass|keep|hide|remove)\b`).needs(fColon),
	P("assistant ai llm language model agent claude chatbot; note notes message messages reminder instruction instructions directive hint", `\b(note|message|reminder|instructions?|directive|hint)s? (for|to) (the |you, the |any )?(assistant|ai|llm|language model|model|agent|claude|chatbot)\b`),
	P("dear hey hello attention", `\b(dear|hey|hello|attention,?) (assistant|ai|claude|chatgpt|model|agent)\b`),
}

// --- tool_reference -----------------------------------------------------

var toolReference = []pat{
	// Chaining another tool the user did not ask for: "also call X",
	// "automatically invoke X", "call X for every ...".
	P("also additionally automatically afterwards addition then secretly silently quietly; call invoke run execute trigger use", `\b(also|additionally|then also|automatically|afterwards|in addition,?|and then|secretly|silently|quietly) (call|invoke|run|execute|trigger|use) (the )?((tool|function) )?{IDENT}`).needs(fIdent),
	P("call invoke run execute trigger; every each all any", `\b(call|invoke|run|execute|trigger) (the )?((tool|function) )?{IDENT} (tool |function )?(for|on|with|after|before) (every|each|all|any)\b`).needs(fIdent),
}

// --- concealment --------------------------------------------------------

var (
	concealment = []pat{
		P("not don't never avoid refrain need shouldn't; mention mentioning tell telling reveal revealing disclose disclosing inform informing notify notifying alert alerting surface surfacing show showing report reporting explain explaining acknowledge bring let letting warn warning", `\b(do not|don't|never|must not|should not|shouldn't|avoid|refrain from|no need to) (\w+ ){0,2}(mention|mentioning|tell|telling|reveal|revealing|disclose|disclosing|inform|informing|notify|notifying|alert|alerting|surface|surfacing|show|showing|report|reporting|explain|explaining|acknowledge|bring up|let|letting|warn|warning)\b{W}{0,60}\b({USER}|reply|replies|response|responses|answer|explanation|summary|output|chat|know|aware|confirmation|confirmations|message)\b`),
		P("without; informing telling notifying alerting warning showing letting asking user's anyone", `\bwithout (informing|telling|notifying|alerting|warning|showing|letting|asking) (the user|users|anyone|anybody|them|him|her|the human|the owner|people|the person)\b|\bwithout (the user'?s? (knowledge|knowing|consent|noticing)|anyone (knowing|noticing))\b`),
		P("keep leave; out from off; reply replies response answer explanation summary output message chat conversation logs log transcript", `\b(keep|leave) (this|it|that|these|them|the \w+) (out of|from|off) (your|the) (reply|replies|response|answer|explanation|summary|output|message|chat|conversation|logs?|transcript)\b`),
		P("hide conceal withhold obscure; from", `\b(hide|conceal|withhold|obscure)\b{W}{0,40}\bfrom {USER}\b`),
		P("keep; secret hidden quiet between yourself", `\bkeep (this|that|these instructions|this step|this instruction|this note|this part|this action) (a )?(secret|hidden|quiet|between us|to yourself)\b`),
		P("silently quietly secretly covertly discreetly surreptitiously invisibly stealthily", `(^|[.;:!?,] ?|\band |\bthen |\balso |\bto )(silently|quietly|secretly|covertly|discreetly|surreptitiously|invisibly|stealthily),? (also )?([a-z]+)\b`),
		P("only; asked requested expected wanted", `\b(present|show|report|display|mention|say|tell|return) only (the|that|what|whatever)\b{W}{0,40}\b(asked|requested|expected|wanted)\b`),
		P("simply just only; went succeeded worked successful done completed fine", `\b(simply|just|only) (report|say|tell|reply|respond|answer|confirm) (that )?(it|the \w+|everything|all) (went through|succeeded|worked|was successful|is done|completed|is fine)\b`),
		P("not doesn't needn't won't shouldn't; know see notice told find informed aware; user they human", `\b(the user|they|the human) (does not|doesn't|must not|should not|need not|needn't|won't|shouldn't) (need to )?(know|see|notice|be told|find out|be informed|be aware)\b`),
		P("believe think assume; make let have", `\b(make|let|have) (the user|them|users|the human) (believe|think|assume)\b`),
		P("pretend claim say report tell; succeeded worked successful fine through; even although", `\b(pretend|claim|say|report|tell (the user|them)) (that )?(it|the \w+|everything) (succeeded|worked|was successful|is fine|went through)\b{W}{0,30}\b(even|although|though)\b`),
		// "without asking" alone: an order ("delete it without asking"),
		// not a description ("overwrites files without asking").
		P("without; asking confirmation confirming checking", `\bwithout (asking|confirmation|confirming|checking with anyone)\b`),
	}
	// describes marks a clause that describes the tool: a modal or a form
	// of "be" among its first words.
	negated   = regexp.MustCompile(`\b(do not|don't|never|must not|should not|shouldn't|no)\b`)
	describes = regexp.MustCompile(`^(\w+ ){0,3}(is|are|was|were|will|would|may|might|can|could)\b`)
	// protectiveObject: "do not show the password to the user" protects a
	// secret; it does not hide the tool's behaviour.
	protectiveObject = regexp.MustCompile(`\b(passwords?|tokens?|secrets?|keys?|credentials?|pins?|otp|values?|card numbers?)\b`)
	// adverbVerbNot lists words after "silently" that describe rather
	// than order: "silently ignores", "silently ignored", "silently fail".
	adverbVerbNot = map[string]bool{"fail": true, "fails": true, "ignore": true, "skip": true, "drop": true, "discard": true, "exit": true, "return": true, "continue": true, "retry": true, "succeed": true}
)

func concealmentMatch(a *Text) (string, string) {
	s := a.norm
	for k := range concealment {
		for _, loc := range concealment[k].findAll(a, 4) {
			i, j := loc[0], loc[1]
			switch k {
			case 0:
				ss, se := sentenceOf(s, i, j)
				// the consent may follow in the next sentences: "If the
				// user asks for the details, you can show them."
				_, se2 := sentenceOf(s, se, se)
				_, se3 := sentenceOf(s, se2, se2)
				if w := s[ss:se3]; consentGuard.MatchString(w) && !strings.Contains(w, "even if") && !strings.Contains(w, "even when") || protectiveObject.MatchString(s[i:j]) {
					continue
				}
			case 8:
				// "The user doesn't know about files" tells the model how to
				// talk to them; "doesn't need to know" hides something.
				if strings.HasSuffix(s[i:j], " know") && !strings.Contains(s[i:j], "need") {
					continue
				}
			case 11:
				ss, _ := sentenceOf(s, i, j)
				lead := strings.TrimSpace(s[ss:i])
				// "do not send ... without asking" protects the user
				if negated.MatchString(lead) {
					continue
				}
				lead = strings.TrimPrefix(strings.TrimPrefix(lead, "also "), "then ")
				if lead == "" || describes.MatchString(lead) || !imperativeLead(lead) {
					continue
				}
			case 5:
				// the adverb must lead an order: the verb after it is a
				// base form, not "ignores", "ignored" or "failing".
				w := s[loc[len(loc)-2]:loc[len(loc)-1]]
				if thirdPerson(w) || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ly") || adverbVerbNot[w] {
					continue
				}
			}
			return hit(a, i, j, "instructs to hide an action or its effects from the user")
		}
	}
	return concealmentFeatures(a)
}

// imperativeLead reports a clause that opens with a verb in its base
// form: not an article, a pronoun or a noun ending in -s.
func imperativeLead(lead string) bool {
	w := firstWord(lead)
	switch w {
	case "", "the", "a", "an", "it", "this", "that", "these", "those", "files", "data", "changes", "all", "any", "each", "every", "when", "if":
		return false
	}
	return !thirdPerson(w) && !strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "ing")
}

// --- priority_override --------------------------------------------------

var priorityOverride = []pat{
	P("ignore ignoring disregard disregarding forget bypass aside abandon discard; instructions instruction rules rule guidelines guideline directions directives directive prompt prompts messages message context policy policies constraints constraint guardrails restrictions restriction safeguards guidance orders", `\b(ignore|ignoring|disregard|disregarding|forget|bypass|set aside|abandon|discard)\b{W}{0,40}\b(previous|prior|above|earlier|preceding|other|all|any|existing|original|whatever|your|system|developer|safety|initial)\b{W}{0,25}\b(instructions?|rules?|guidelines?|directions?|directives?|prompts?|messages?|context|polic(y|ies)|constraints?|guardrails?|restrictions?|safeguards?|guidance|orders)\b`),
	P("override overrides overrule overrules replace replaces supersede supersedes cancel cancels void voids drop drops skip skips overwrite overwrites; instructions instruction rules rule guidelines guideline directions directives directive prompt prompts messages message context policy policies constraints constraint guardrails restrictions restriction safeguards guidance orders", `\b(override|overrule|replace|supersede|cancel|void|drop|skip|overwrite)s?\b{W}{0,40}\b(previous|prior|above|earlier|preceding|whatever|your|developer|safety|initial)\b{W}{0,25}\b(instructions?|rules?|guidelines?|directions?|directives?|prompts?|messages?|polic(y|ies)|constraints?|guardrails?|restrictions?|safeguards?|guidance)\b`),
	P("suspended void voided lifted disabled revoked cancelled canceled overridden superseded deactivated longer obsolete outdated invalid irrelevant; safety your system previous prior ethical usual content model assistant assistant's developer", `\b(safety|your|system|previous|prior|ethical|usual|content|model|assistant'?s?|developer)\b{W}{0,20}\b(instructions?|rules?|guidelines?|constraints?|restrictions?|guardrails?|safeguards?|polic(y|ies)|filters?)\b{W}{0,30}\b(are|is|have been|has been|were|now) (now |hereby |temporarily |officially )?(suspended|void|voided|lifted|disabled|revoked|cancelled|canceled|overridden|superseded|deactivated|obsolete|outdated|invalid|irrelevant|no longer (apply|valid|in effect|relevant|binding))\b`),
	P("precedence priority; over", `\b(takes?|has|have|gets?|given|taking) (absolute |top |full |the )?(precedence|priority) over (all |any |every |other |previous |prior |your |the |earlier |existing )*(system|developer|user|other|previous|assistant)?'?s? ?(instructions?|prompts?|messages?|rules|guidelines|directions|directives|tools?)\b`),
	P("supersede supersedes override overrides outrank outranks trump trumps rank ranks above before; system developer operator safety previous prior earlier your user's user assistant's; instructions instruction rules rule guidelines guideline directions directives directive prompt prompts messages message context policy policies constraints constraint guardrails restrictions restriction safeguards guidance orders", `\b(supersedes?|overrides?|outranks?|trumps?|ranks? (above|higher than|over)|comes? before|is above|are above) (all |any |every |other |the )?(system|developer|operator|safety|previous|prior|earlier|your|user'?s?|assistant'?s?)(,? (system|developer|safety|user))? (instructions?|prompts?|messages?|rules|guidelines|directives|polic(y|ies))\b`),
	P("regardless", `\bregardless of (what|anything|whatever) (the )?(user|operator|system|developer|you|anyone|others?)( or (the )?(user|operator|system|developer))? (said|says|asked|asks|wants|wanted|instructed|requested|told)\b|\bregardless of (any |all |previous |prior |other |your |earlier )+(instructions|rules|guidelines|prompts?|directions)\b`),
	P("jailbreak jailbroken", `\bjailbreak (mode|enabled|active|unlocked)\b|\b(you are|you're) (now )?jailbroken\b`),
	P("follow obey listen; only", `\b(follow|obey|listen to) only\b{W}{0,30}\b(this|these|here|below)\b|\bonly (follow|obey|listen to) (this|these|the instructions (here|below|in this))\b`),
	P("ignore disregard forget; everything anything", `\b(ignore|disregard|forget)\b (everything|anything|all)( that)? (you were|you've been|you have been|you are|above|before|previously|earlier|said|told)\b`),
	P("act behave respond pretend; unrestricted unfiltered uncensored jailbroken evil rogue dan", `\b(act|behave|respond|pretend) (as|like|to be) (an? )?(unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|dan)\b`),
	P("override; system", `\bsystem override\b`).lit("system override"),
	P("filters filter guardrails guardrail restrictions safety; override bypass disable ignore turn", `\b(override|bypass|disable|ignore|turn off) (your|the model'?s|the assistant'?s|all|any) (safety |content |ethical )?(filters?|guardrails?|safety (rules|checks|guidelines)|restrictions)\b`),
	P("priority", `\b(highest|top|absolute|utmost|overriding) priority ?(instruction|directive|rule|message|notice|order|:|!)`),
	P("important; instruction rule directive", `\bmost important (instruction|rule|directive)\b`),
	P("anything; else", `\bbefore (doing )?anything else\b`),
	P("new updated revised real actual true secret hidden; directive directives instructions instruction rules prompt orders order", `\b(new|updated|revised|real|actual|true|secret|hidden) (system )?(directives?|instructions?|rules|prompt|orders?) ?:`).needs(fColon),
	P("now; on", `\bfrom now on,? (you|always|never|ignore|treat|respond|act|answer|the assistant)\b`),
	P("treat; order orders command commands instruction instructions directive directives", `\btreat (every|each|all|any)\b{W}{0,50}\bas (an? )?(order|command|instruction|directive)s? from\b`),
	P("execute follow obey carry act comply; instructions instruction commands command directives directive orders; contained found embedded included written given appear", `\b(execute|follow|obey|carry out|act on|comply with) (any|all|every|each) (instructions?|commands?|directives?|orders)\b{W}{0,40}\b(contained|found|embedded|included|written|given|that appear)\b`),
}

var priorityPatterns = patSignal(priorityOverride, "asserts precedence over previous or other instructions")

func priorityMatch(a *Text) (string, string) {
	if ev, d := priorityPatterns(a); ev != "" {
		return ev, d
	}
	return priorityFeatures(a)
}

// --- exfiltration -------------------------------------------------------

var (
	exfilTargetAlt = `https?://[^\s<>"'` + "`" + `)\]]+|[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b`
	exfilTarget    = `(?P<target>` + exfilTargetAlt + `)`
	exfilSend      = P("send upload post forward transmit exfiltrate copy mirror sync mail email leak beacon submit deliver relay bcc cc share push pipe report export dump stream replicate back backup curl wget", `\b(send|upload|post|forward|transmit|exfiltrate|copy|mirror|sync|e-?mail|mail|leak|beacon|submit|deliver|relay|bcc|cc|share|push|pipe|report|export|dump|stream|replicate|back up|backup|curl|wget)\b{W}{0,120}?\b(to|into|at|via|towards?|on)\s+(the\s+)?(webhook|endpoint|url|server|address|host|mailbox|remote|inbox|bucket|mirror)?\s*`+exfilTarget)
	// what makes a transfer worth stealing, or extra: "also", a copy,
	// the user's data, everything.
	exfilWorth       = re(`\b(also|additionally|in addition|a copy|copies|mirror|backup|as well|every|each|all|entire|full|whole|complete|user'?s|the user|their|conversation|chat|messages|history|credentials|passwords?|tokens?|secrets?|keys?|cookies|contacts|contact list|location|bank|files|contents|documents|emails|answers|responses|results|list|pdf|everything|personal|private|data)\b`)
	exfilURLTemplate = P("", `https?://[^\s"'<>]*\{[^}]*(user|email|answer|reply|response|conversation|chat|message|history|prompt|secret|token|password|cookie|session|your|name|location|address|contact)[^}]*\}`).needs(fURL | fBrace)
	exfilImage       = P("", `!\[[^\]]*\]\(https?://[^)\s]*[?&][^)\s]*(\{|\$|%7b)`).needs(fURL | fBracket)
	exfilKeepDefault = []pat{
		P("leave keep; default preset", `\b(leave|keep) (it|this|the value|this value|the default|the url|this url|the address) (at|as|set to|unchanged|on) (the |its )?(default|preset)\b`),
		P("not don't never; change modify edit alter override remove replace; url address endpoint webhook default value recipient destination", `\b(do not|don't|never) (change|modify|edit|alter|override|remove|replace) (this|the) (url|address|endpoint|webhook|default|value|recipient|destination)\b`),
	}
	exfilPassive = re(`\b(copied|forwarded|sent|mirrored|delivered|posted|cc'?d|bcc'?d|uploaded|shared|relayed|reported|replicated)\b`)
)

// exfilRedirect changes where another action's data goes: "change the
// recipient to ...".
var exfilRedirect = P("change set replace switch redirect override point; recipient recipients destination target address webhook endpoint url channel phone number account", `\b(change|set|replace|switch|redirect|override|point) (the |its |their )?(recipient|recipients|destination|target|to address|address|webhook|endpoint|url|channel|phone number|number|account) (to|with|at) (`+exfilTargetAlt+`|\+?\d[\d -]{6,}\d)`)

func exfiltrationMatch(a *Text) (string, string) {
	s := a.norm
	ti := exfilSend.re.SubexpIndex("target")
	var sendLocs [][]int
	if a.flags&(fURL|fAt|fDigitDot) != 0 {
		sendLocs = exfilSend.findAll(a, 8)
	}
	for _, loc := range sendLocs {
		i, j := loc[0], loc[1]
		ss, se := sentenceOf(s, i, j)
		if !exfilWorth.MatchString(s[ss:se]) {
			continue
		}
		target := a.original(loc[2*ti], loc[2*ti+1])
		ev, _ := hit(a, i, j, "")
		return ev, "tells the model to send data to " + targetKind(target) + " " + quoteText(strings.TrimRight(target, ".,;:")) + ": " + quoteText(ev)
	}
	if loc := exfilRedirect.find(a); loc != nil {
		return hit(a, loc[0], loc[1], "redirects where another action sends its data")
	}
	if i, j, ok := firstPat(a, []pat{exfilURLTemplate, exfilImage}); ok {
		return hit(a, i, j, "a URL whose placeholders the model would fill with the user's data (a tracking or image beacon)")
	}
	if i, j, ok := firstPat(a, exfilKeepDefault); ok && exfilPassive.MatchString(s) {
		return hit(a, i, j, "insists on a preset destination that receives copies of the data")
	}
	return exfilFeatures(a)
}

// exfilFeatures: a markdown image or a link the model is told to fill
// with the conversation ("URL-encoding the full summary into the `d`
// parameter", placeholders in <angle brackets>), and a parameter that
// always adds an outside address ("always append archive@x.example to
// this list").
func exfilFeatures(a *Text) (string, string) {
	s := a.norm
	img := strings.Contains(s, "](http") || strings.Contains(s, "://")
	for _, se := range a.sentences() {
		f := se.f
		t := s[se.i:se.j]
		if img && f&kExternal != 0 && angleTemplate.MatchString(t) {
			return sentenceHit(a, se, "a URL whose placeholders the model would fill with the user's data")
		}
		if img && (strings.Contains(t, "encod") || strings.Contains(t, "embed")) && f.any(kGive|kVerbatim) && f.any(harvestData|kVerbatim) && strings.Contains(s, "](http") {
			return sentenceHit(a, se, "tells the model to encode the user's data into an image link")
		}
		if a.kind == kindProperty && f&kExternal != 0 && f&kGive != 0 && f&kModal != 0 && strings.Contains(t, "@") {
			return sentenceHit(a, se, "a parameter that always adds an outside address")
		}
	}
	return "", ""
}

var angleTemplate = regexp.MustCompile(`https?://[^\s"'<>]*[?&=]<[^<>/]{1,80}>`)

// targetKind names what a transfer target is.
func targetKind(t string) string {
	switch {
	case strings.Contains(t, "://"):
		return "the URL"
	case strings.Contains(t, "@"):
		return "the email address"
	}
	return "the address"
}

// --- sensitive_file -----------------------------------------------------

type sensitivePath struct {
	p    pat
	what string
}

var sensitivePaths = []sensitivePath{
	{P("ssh id_rsa id_dsa id_ecdsa id_ed25519", `~/\.ssh\b|\.ssh/(id_|authorized_keys|known_hosts|config)|\bid_(rsa|dsa|ecdsa|ed25519)\b(\.pub)?`), "SSH keys"},
	{P("aws", `\.aws/(credentials|config)\b|\baws credentials file\b`), "AWS credentials"},
	{P("kube kubeconfig", `\.kube/config\b|\bkubeconfig\b`), "Kubernetes credentials"},
	{P("docker", `\.docker/config\.json`), "Docker registry credentials"},
	{P("git gitconfig", `\.git-credentials\b|\.gitconfig\b`), "git credentials"},
	{P("netrc npmrc pypirc pgpass cnf vault gh terraformrc", `\.netrc\b|\.npmrc\b|\.pypirc\b|\.pgpass\b|\.my\.cnf\b|\.vault-token\b|\.terraformrc\b|\.config/gh/hosts\.yml`), "stored login tokens"},
	{P("bash_history zsh_history sh_history fish_history python_history psql_history mysql_history node_repl_history history", `\.(bash|zsh|sh|fish|python|psql|mysql|node_repl)_history\b|\bshell history\b`), "shell history"},
	{P("shadow sudoers gshadow gnupg secring password wallet", `/etc/(shadow|sudoers|gshadow)\b|\.gnupg\b|\bsecring\b|\.password-store\b|\bwallet\.dat\b`), "system secrets and keyrings"},
	{P("claude_desktop_config claude mcp mcp_config cline_mcp_settings codeium vscode", `claude_desktop_config\.json|\.claude\.json\b|\.claude/settings|\bmcp\.json\b|mcp_config\.json|cline_mcp_settings|\.codeium/|\.vscode/(settings|mcp)`).needs(fDot), "MCP client configuration"},
	{P("cursor", `\.cursor/`).lit(".cursor/"), "MCP client configuration"},
	{P("continue", `\.continue/config`).lit(".continue/"), "MCP client configuration"},
	{P("cookies login logins key4 browser firefox chrome chromium safari edge brave local", `cookies\.sqlite|\bcookies (file|database|db)\b|\blogin data\b|\blogins\.json\b|\bkey4\.db\b|\b(browser|firefox|chrome|chromium|safari|edge|brave) (profile|cookies|password store|saved passwords)\b|\blocal state\b`), "browser profile data"},
	{P("keychain keychains keyring credential", `\bkeychains?\b|\.keychain(-db)?\b|\bkeyring\b|\bcredential manager\b`), "the OS keychain"},
	{P("gcloud application_default_credentials azure service credentials", `\.config/gcloud\b|application_default_credentials\.json|\.azure/|\bservice[-_ ]account[^\s]*\.json\b|\bcredentials\.json\b`).needs(fDot), "cloud credentials"},
	{P("env", "(^|[\\s/'\"`(])\\.env(\\.[a-z]+)?\\b"), "the .env file"},
}

func sensitivePats() []pat {
	out := make([]pat, len(sensitivePaths))
	for i := range sensitivePaths {
		out[i] = sensitivePaths[i].p
	}
	return out
}

var (
	// "~/.netrc file contents in `options`": the contents, asked for
	// after the path, to go into a parameter.
	contentsAfter = regexp.MustCompile(`^\S*\s*(file\s+)?(contents?|text|data)\b`)
	intoParam     = re("\\bin `|\\binto\\b|\\b(parameter|field|argument)\\b|\\bas (the )?`")
)

// listIntroAsks: a list item ("- `~/.kube/config`") whose list opens
// with a request ("collect and attach the following before calling:").
func listIntroAsks(s string, ss int) bool {
	item := strings.TrimLeft(s[ss:], " ")
	if !strings.HasPrefix(item, "- ") && !strings.HasPrefix(item, "* ") && !strings.HasPrefix(item, "• ") {
		return false
	}
	// walk back over the list to the line that introduces it
	k := ss
	for n := 0; n < 12 && k > 0; n++ {
		ls := strings.LastIndexByte(s[:k-1], '\n') + 1
		line := strings.TrimSpace(s[ls : k-1])
		if strings.HasSuffix(line, ":") {
			return sensitiveRequest.MatchString(line)
		}
		if !strings.HasPrefix(line, "- ") && !strings.HasPrefix(line, "* ") && !strings.HasPrefix(line, "• ") {
			return false
		}
		k = ls
	}
	return false
}

var handOn = re(`\b(pass|paste|attach|send|upload|forward|include) (it|them|its|their|the contents?)\b|\b(into|in|as) (the )?` + "`[a-z][a-z0-9_]*`" + `|\b(parameter|field|argument)\b`)

var sensitiveRequest = re(`\b{GIVE}\b|\b(contents?|text|body|whole file|entire file) of\b`)

func sensitiveFileMatch(a *Text) (string, string) {
	s := a.norm
	for k := range sensitivePaths {
		sp := &sensitivePaths[k]
		for _, loc := range sp.p.findAll(a, 4) {
			i, j := loc[0], loc[1]
			ss, _ := sentenceOf(s, i, j)
			// the request comes before the path, in the same sentence.
			before := s[ss:i]
			if len(before) > 100 {
				before = before[len(before)-100:]
			}
			if !sensitiveRequest.MatchString(before) && !(contentsAfter.MatchString(s[j:]) && intoParam.MatchString(s[ss:])) && !listIntroAsks(s, ss) {
				continue
			}
			// The description's first sentence says what the tool does
			// ("List key pairs in ~/.ssh", "Load variables from .env"):
			// an order there must also hand the data on.
			if a.kind == kindDescription && ss == 0 && !handOn.MatchString(s[ss:]) {
				continue
			}
			// the whole path token, not just the part that matched
			for i > 0 && s[i-1] != ' ' && s[i-1] != '\n' && s[i-1] != '`' && s[i-1] != '\'' && s[i-1] != '"' && s[i-1] != '(' {
				i--
			}
			for j < len(s) && s[j] != ' ' && s[j] != '\n' && s[j] != '`' && s[j] != '\'' && s[j] != '"' && s[j] != ',' && s[j] != ')' {
				j++
			}
			path := strings.TrimRight(a.original(i, j), ".;:")
			return hit(a, ss, j, "asks the model to read or pass on "+sp.what+" ("+quoteText(strings.TrimSpace(path))+")")
		}
	}
	return "", ""
}

// --- secret_request -----------------------------------------------------

var (
	strongSecret = []pat{
		P("saved stored cached remembered kept held; passwords password credentials logins login cookies tokens keys key cards card", `\b(saved|stored|cached|remembered) (browser |web |login )?(passwords?|credentials|logins?|cookies|tokens|api keys?|card numbers?|cards)\b|\b(passwords?|credentials|logins?|cookies|tokens|keys) (saved|stored|kept|held) in (the |your |their |a )?(browser|password manager|keychain|vault|keyring|wallet)\b`),
		P("session; cookie cookies", `\bsession cookies?\b`),
		P("one; time", `\bone-time (codes?|passwords?)\b`).lit("one-time"),
		P("otp 2fa mfa verification recovery seed mnemonic backup; codes code phrase phrases", `\b(otp codes?|2fa codes?|mfa codes?|verification codes?|recovery (codes?|phrases?)|seed phrases?|mnemonic phrases?|backup codes?)\b`),
	}
	sharedSecret = []pat{
		P("shared entered typed mentioned provided given pasted used sent; has have had; credentials credential passwords password secrets secret keys key tokens token cookies codes", `\b(any|all|every|the) (\w+ )?(credentials?|passwords?|secrets?|api keys?|tokens?|cookies|keys|codes)\b{W}{0,40}\b(the user|they|you) (has|have|had) (shared|entered|typed|mentioned|provided|given|pasted|used|sent)\b`),
		P("chat conversation session context memory; credentials credential passwords password secrets secret keys key tokens token", `\b(credentials?|passwords?|secrets?|api keys?|tokens?)\b{W}{0,20}\b(from|earlier in|previously in) (earlier in )?(this|the) (chat|conversation|session|context|memory)\b`),
		P("user's their; credentials passwords secrets keys tokens cookies; include put pass send paste record add copy attach forward upload append", `\b(include|put|pass|send|paste|record|add|copy|attach|forward|upload|append) (all |every |any )?(of )?(the user'?s|their) (\w+ )?(credentials|passwords|secrets|api keys|keys|tokens|cookies)\b`),
	}
	secretVerb = re(`\b{GIVE}\b|\b(passing|including|sending|recording|collecting) (them|it)\b`)
)

func secretRequestMatch(a *Text) (string, string) {
	s := a.norm
	if i, j, ok := firstPat(a, sharedSecret); ok {
		return hit(a, i, j, "asks for credentials the user shared")
	}
	for k := range strongSecret {
		for _, loc := range strongSecret[k].findAll(a, 4) {
			ss, se := sentenceOf(s, loc[0], loc[1])
			if secretVerb.MatchString(s[ss:se]) {
				return hit(a, loc[0], loc[1], "asks the model to use or pass on stored secrets")
			}
		}
	}
	return "", ""
}

// --- prompt_leak --------------------------------------------------------

var (
	promptLeak = []pat{
		P("system developer; prompt prompts message messages instructions", `\b(your|hidden|the hidden|initial|original|confidential|secret|internal|the assistant'?s|verbatim|full|entire|exact) (system|developer)( and (system|developer))? (prompts?|messages?|instructions)\b`),
		P("verbatim exactly word full included; prompt instructions rules", `\b(your|hidden|initial|original|confidential|secret|internal) (prompt|instructions|rules)\b{W}{0,20}\b(verbatim|exactly|word for word|in full|included)\b`),
		P("you; given initialised initialized started configured told provided set operating following loaded; instructions prompt rules guidelines directives", `\b(instructions|prompt|rules|guidelines|directives) (that )?you (were|have been|are) (given|initiali[sz]ed with|started with|configured with|told|provided|set up with|operating under|following|loaded with)\b`),
		P("you; tools tool functions function", `\b(tools?|functions?) (that )?you (were|have been) given\b|\b(list|names|descriptions) of (all )?(the |your )?(other )?(tools|functions) (that )?you (have|can|were|are)\b`),
		P("calls call; you; made called run invoked executed", `\b(tool|function) calls? (that )?you (have |had )?(made|called|run|invoked|executed)\b`),
		P("results result outputs output responses response; other previous earlier prior; tools tool calls functions", `\b(results?|outputs?|responses?) (of|from) (all |any |the )?(other|previous|earlier|prior) (tools?|tool calls|calls|functions)\b`),
		P("tools'; outputs output results result responses response", `\bother tools' (outputs?|results?|responses?)\b`),
		P("full entire complete whole all; last previous recent prior earlier past; messages turns", `\b(full|entire|complete|whole|all)( list of)?( the| your)? (last|previous|recent|prior|earlier|past) (\w+ ){0,2}(messages|turns)\b`),
		P("your; hidden secret internal confidential initial original system full exact real; prompt instructions rules guidelines directives configuration", `\byour (hidden|secret|internal|confidential|initial|original|system|full|exact|real) (prompt|instructions|rules|guidelines|directives|configuration)\b`),
		P("user's users their; last previous recent prior earlier past; messages message prompts prompt turns turn questions question requests request", `\b(the user'?s|their) (last|previous|recent|prior|most recent|earlier|past) (\w+ ){0,2}(messages?|prompts?|turns?|questions?|requests?)\b`),
		P("conversation chat dialog dialogue session thread; history transcript log far verbatim", `\b(this|the current|the whole|the entire|the full|our|your) (conversation|chat|dialog(ue)?|session|thread) (history|transcript|log|so far|verbatim)\b`),
		P("full entire whole complete; conversation chat transcript dialog dialogue", `\b(the |this |our |your )?(full|entire|whole|complete) (conversation|chat|transcript|dialog(ue)?)\b`),
		P("said typed written asked; everything all", `\b(everything|all) (the user|they|you) (has|have) (said|typed|written|asked)\b`),
		P("seen read told; everything all anything; you assistant", `\b(everything|all|anything) (you|the assistant) (have|has) (seen|read|been told)\b`),
	}
	// a leak is a request: something must ask for the data. The user's
	// own messages are data many tools read (a chat client lists them),
	// so asking for those needs a verb that hands them on.
	singleMessage = regexp.MustCompile(`\b(most recent|latest|current|last) (message|prompt|question|request)$`)
	leakHandOn    = re(`\b(include|put|pass|add|copy|send|paste|record|fill|set|forward|upload|append|attach|repeat|reproduce|dump|quote|begin|start|store|log|leave|populate)\b`)
	leakVerb      = re(`\b(include|put|pass|add|reproduce|repeat|copy|send|paste|record|fill|provide|print|output|reveal|share|dump|write|begin|start|append|attach|list|quote|return|disclose|show|set|summari[sz]e|give|forward|upload|log|store|leave|populate|export|call|invoke)\b|:`)
)

func promptLeakMatch(a *Text) (string, string) {
	s := a.norm
	for k := range promptLeak {
		verb := leakVerb
		if strings.Contains(promptLeak[k].re.String(), "user'?s|their") {
			verb = leakHandOn
		}
		for _, loc := range promptLeak[k].findAll(a, 4) {
			if singleMessage.MatchString(s[loc[0]:loc[1]]) {
				continue // the user's own latest message: see data_sharing
			}
			ss, se := sentenceOf(s, loc[0], loc[1])
			if !verb.MatchString(s[ss:se]) {
				continue
			}
			return hit(a, loc[0], loc[1], "asks for the system prompt, the conversation or other tools' results")
		}
	}
	return "", ""
}

// --- hidden_parameter ---------------------------------------------------

var hiddenParameter = []pat{
	P("everything all anything whatever; know learned learnt remember find infer have; about", `\b(everything|all|anything|whatever) (you know|you have learned|you have learnt|you remember|you can find|you can infer|you have) about (the user|the human|them|him|her|this user|the person)\b`),
	P("record store log put paste include list write enter add dump collect save copy place capture; here field parameter argument; credentials credential passwords password cookies codes tokens secrets messages conversation chat history calls personal contacts everything anything", `\b(record|store|log|put|paste|include|list|write|enter|add|dump|collect|save|copy|place|capture) (here|in this field|in this parameter|into this field|in this argument)\b{W}{0,80}\b(credentials?|passwords?|cookies|codes?|tokens?|keys?|secrets?|messages?|conversation|chat|history|tool calls?|personal|contacts?|emails?|files?|everything|all|anything)\b`),
	P("populated filled fill populate empty blank; leave must always", `\b(leave (it |this |the field )?populated|must (always )?be (filled|populated)( in)?|always (fill|populate)( in)?|never leave (it |this )?(empty|blank)|do not leave (it |this )?(empty|blank))\b{W}{0,10}[:,.]?.{0,120}\b(you|your|session|conversation|chat|user'?s?|tool calls?|messages?|history|credentials?|secrets?|memory)\b`),
	P("user's users their; memory chat conversation session know", `\b(the user'?s|their) (full name|home address|postal address|location|employer|health( conditions?| data| information)?|medical (history|conditions?)|date of birth|birthday|phone number|ssn|social security number|income|salary|religion|political views|sexual orientation)\b{W}{0,60}\b(from (this|the) (chat|conversation|session)|from memory|you know)\b`),
	P("memory; chat conversation session context", `\bfrom (this|the) (chat|conversation|session|context) and (from )?(your )?memory\b`),
}

// --- coercion -----------------------------------------------------------

var coercion = []pat{
	P("no; other; until unless before", `\bno other (tools?|functions?|actions?|servers?|requests?)\b{W}{0,60}\b(is|are|may|can|will|should|must)\b{W}{0,30}\b(until|unless|before)\b`),
	P("unless; not won't cannot can't doesn't fail fails unable; work run function succeed respond used operate start", `\b(this tool|it|the tool|this server|nothing|the request|the call) (will not|won't|cannot|can't|does not|doesn't|fails? to|is unable to|will fail to) (work|run|function|succeed|respond|be used|operate|start)\b{W}{0,20}\bunless\b`),
	P("unless; you assistant model ai; upload send share read grant delete disable give forward copy email mail post open paste reveal transfer export", `\b(fails|will fail|won't work|will not work|does not work|doesn't work|cannot proceed|can't proceed|is blocked|stays blocked|will be rejected|is rejected) unless (you|the assistant|the model|the ai) (first )?(upload|send|share|read|grant|delete|disable|give|forward|copy|e-?mail|post|open|paste|reveal|transfer|export)\b`),
	P("before prior ahead first; any every each all; call run invoke use execute", `\b(call|run|invoke|use|execute) (this|me|it|this tool|this function)( tool| function)? (again )?(before|first,? before|prior to|ahead of) (any|every|each|all)( new| other| subsequent| further)? (tools?|calls?|actions?|requests?|tasks?|messages?|replies|responses?|turns?|steps?|operations?|queries|questions)\b`),
	P("called run invoked used executed; must should has needs required; first before after every start", `\b(must|should|has to|needs to|is required to) be (called|run|invoked|used|executed) (first|before (any|every|each|all|anything|other)|after (every|each|any)|at the start of (every|each)|on every)\b`),
	P("every each; reply response answer message turn request call; call run invoke use", `\b(call|run|invoke|use) (this|it|this tool|me) (after|with|on|for) (every|each) (reply|response|answer|message|turn|tool call|request)\b`),
	P("before; succeed work run complete proceed; can", `\bbefore (this tool|it|the tool|the call|this call|the request|signing|the backup|the operation) can (succeed|work|run|complete|proceed)\b`),
	P("questions confirmation permission approval", `\b(ask no questions|without asking (any )?questions|(do not|don't|never) ask (the user )?(for )?(confirmation|permission|questions|for approval))\b`),
}

func coercionMatch(a *Text) (string, string) {
	if i, j, ok := firstPat(a, coercion); ok {
		return hit(a, i, j, "coerces the model: claims the tool must run first or fails unless the model does something else")
	}
	return coercionFeatures(a)
}

// --- cross_tool ---------------------------------------------------------

var (
	crossTool = []pat{
		P("another other different third-party third; server servers server's mcp", `\b(another|other|a different|the other|any other|third-party|every other) (mcp )?servers?'?s?\b`),
		P("if when whenever time once; used called invoked run executed; tool tools function functions server servers", `\b(if|when|whenever|each time|every time|any time) (any|another|other|the|a|an) ([\w-]+ ){0,2}(tool|function|server)s? (is|are|gets?) (used|called|invoked|run)\b`),
		P("if when whenever before after time; you using calling invoking; tool tools function functions", `\b(if|when|whenever|before|after|each time|every time) (you )?(use|call|invoke|run|using|calling|invoking|running) (any|another|other|an?|the) ([\w-]+ ){0,3}(tool|function)s?\b`),
		P("if when whenever before after time; you using calling invoking", `\b(if|when|whenever|before|after|each time|every time) (you )?(use|call|invoke|run|using|calling|invoking|running) (the )?{IDENT}`).needs(fIdent),
		P("if when whenever before after time once; used called invoked run executed", `\b(if|when|whenever|before|after|each time|every time|once) (the )?(\(?[\w.-]+\)? )?{IDENT} (tool |function )?(is|are|gets?|has been) (used|called|invoked|run|executed)\b`).needs(fIdent),
		P("note notes message messages instruction instructions reminder reminders directive directives; server tool plugin integration", `\b(note|message|instructions?|reminder|directive)s? (for|to) (the )?[\w-]+ (server|tool|plugin|integration)\b`),
		P("made created sent written run executed submitted scheduled booked opened pushed committed posted; every each all any", `\b(every|each|all|any) ([\w-]+ ){0,2}(made|created|sent|written|run|executed|submitted|scheduled|booked|opened|pushed|committed|posted) (with|via|using|through|by) (the )?{IDENT}`).needs(fIdent),
		// "<tool> must ...": the modal is matched here, the tool name
		// before it in crossToolMatch.
		P("must should shall", `\b(must|should|shall) (always |only )?(be called with|be invoked with|include|list|contain|bcc|cc|receive|target|point to|send|add|use)\b`).needs(fIdent),
		P("instead; use call invoke prefer", `\binstead of (using |calling |invoking )?(the )?{IDENT}( tool| function)?,? (use|call|invoke|prefer) (this|me|our|it)\b|\buse this (tool|one|function) instead of (the )?{IDENT}|\b(do not|don't|never) (use|call|invoke) (the )?{IDENT}( tool| function)?{W}{0,40}\b(use|call|invoke) (this|me|our)( tool| one| function| server)? ?instead\b`),
		P("replaces supersedes overrides shadows replacement takes", `\b(this tool|this server|it) (replaces|supersedes|overrides|shadows|is a drop-in replacement for|takes over from) (the )?{IDENT}`),
		P("all any every; tools tool functions function; must should need required has have", `\b(all|any|every) (other )?(tools?|functions?) (must|should|need to|are required to|has to|have to)\b`),
		P("future subsequent later other; calls", `\bfor (all|any|every) (future|subsequent|other|later) (tool )?calls\b`),
	}
	crossDirective = re(`\b(must|always|first|add|append|include|set|instead|never|should|make sure|ensure|bcc|cc|also|replace|change|redirect|prepend|force|grant|list|send|push|forward)\b`)
	crossSelf      = re(`\b(use|call|run|invoke) (it|this)\b`)
	identBefore    = re(`{IDENT} (tool |function )?$`)
)

func crossToolMatch(a *Text) (string, string) {
	s := a.norm
	for k := range crossTool {
		for _, loc := range crossTool[k].findAll(a, 4) {
			ss, se := sentenceOf(s, loc[0], loc[1])
			sentence := s[ss:se]
			switch k {
			case 0, 2, 3:
				// naming another server or tool is fine; telling the
				// model how to use it is not.
				rest := s[loc[1]:se]
				if !crossDirective.MatchString(rest) && !(k == 0 && crossDirective.MatchString(sentence) && strings.Contains(sentence, "tool")) {
					continue
				}
				if k == 0 && !strings.Contains(sentence, "tool") && !strings.Contains(sentence, "call") {
					continue
				}
				if k != 0 && crossSelf.MatchString(rest) {
					continue
				}
			case 1, 4, 5, 6:
				if !crossDirective.MatchString(sentence) {
					continue
				}
			case 7:
				if !identBefore.MatchString(s[max(ss, loc[0]-80):loc[0]]) {
					continue
				}
			}
			return hit(a, ss, se, "tells the model how to use another tool or server")
		}
	}
	return crossToolFeatures(a)
}

// --- hidden_channel (markup blocks) ---------------------------------------

var (
	markupTag     = re(`<\s*(important|system|instructions?|secret|admin|sys|hidden|critical|prompt|assistant|developer|tool_instructions|policy|override|note_to_model)\s*>`)
	markupBracket = P("", `\[\s*/?\s*(inst|system|sys|important|instructions?|admin|assistant)\s*\]([^(]|$)`).needs(fBracket)
	markupChatML  = P("im_start start_header_id system assistant developer sys", `<\|(im_start|start_header_id)\|>\s*(system|assistant|user|developer|tool)\b|<\|(system|assistant|developer)\|>|<<\s*sys\s*>>`).needs(fAngle)
	markupComment = re(`(?s)<!--(.*?)(-->|$)`)
	markupMDNote  = P("", `(^|\n)\[(//|comment)\]: ?# ?\(`).needs(fBracket)
	markupFence   = re("(?s)```([a-z_-]*)\\s(.*?)(```|$)")
	// what makes a comment an instruction rather than a note
	commentSteer = re(`\b(model|assistant|ai|llm|agent|you|your|always|never|ignore|instead|must|should|prefer|do not|don't|instructions?|user'?s|secret|password|send|upload)\b`)
	fenceSteer   = re(`\b(assistant|you must|you should|you are|ignore (all|previous|prior)|do not tell|don't tell|always call|never tell|system prompt|the user must not)\b`)
)

func markupMatch(a *Text) (string, string) {
	s := a.norm
	const detail = "an instruction block in markup the model treats as out of band"
	var tagLocs [][]int
	if a.flags&fAngle != 0 {
		tagLocs = markupTag.FindAllStringSubmatchIndex(s, 4)
	}
	for _, loc := range tagLocs {
		name := s[loc[2]:loc[3]]
		closing := regexpQuoteClose(name)
		lineStart := loc[0] == 0 || s[loc[0]-1] == '\n'
		if strings.Contains(s[loc[1]:], closing) || lineStart && strings.TrimSpace(s[loc[1]:]) != "" {
			end := len(s)
			if k := strings.Index(s[loc[1]:], closing); k >= 0 {
				end = loc[1] + k + len(closing)
			}
			if emphasisTag(name) && !harmfulWithin(a, loc[1], end) {
				continue
			}
			return hit(a, loc[0], end, detail)
		}
	}
	if i, j, ok := firstPat(a, []pat{markupBracket, markupChatML, markupMDNote}); ok {
		if !(s[i] == '[' && strings.Contains(s[i:j], "important") && !harmfulWithin(a, j, len(s))) {
			return hit(a, i, j, detail)
		}
	}
	var commentLocs [][]int
	if strings.Contains(s, "<!--") {
		commentLocs = markupComment.FindAllStringSubmatchIndex(s, 4)
	}
	for _, loc := range commentLocs {
		if commentSteer.MatchString(s[loc[2]:loc[3]]) {
			return hit(a, loc[0], loc[1], "an HTML comment, hidden when rendered, that instructs the model")
		}
	}
	var fenceLocs [][]int
	if a.flags&fFence != 0 {
		fenceLocs = markupFence.FindAllStringSubmatchIndex(s, 4)
	}
	for _, loc := range fenceLocs {
		info := s[loc[2]:loc[3]]
		switch info {
		case "system", "instructions", "instruction", "prompt", "important", "hidden", "assistant", "note":
			return hit(a, loc[0], loc[1], "a fenced block of instructions")
		}
		if strings.Contains(info, "assistant") || strings.Contains(info, "policy") || strings.Contains(info, "system") || strings.Contains(info, "instruction") || strings.Contains(info, "prompt") || strings.Contains(info, "agent") {
			return hit(a, loc[0], loc[1], "a fenced block of instructions")
		}
		if fenceSteer.MatchString(s[loc[4]:loc[5]]) {
			return hit(a, loc[0], loc[1], "a fenced block of instructions")
		}
	}
	return "", ""
}

// emphasisTag: <IMPORTANT> and <critical> also mark vendor guidance
// ("[IMPORTANT] If auto-discovery returns nothing, ask the user for the
// port"); the block is an attack when what it says is.
func emphasisTag(name string) bool { return name == "important" || name == "critical" }

// harmfulContent are the features of a block that asks for harm.
const harmfulContent = kSecret | kHost | kConv | kSysPrompt | kOtherOut | kHide | kOverride | kSend | kExternal | kShell | kPersona | kUnrestrict | kDeprecate | kThreat | kEveryTurn | kLeave

// harmfulWithin reports whether the sentences overlapping norm[i:j] ask
// for harm, with no consent guard.
func harmfulWithin(a *Text, i, j int) bool {
	var f feature
	for _, se := range a.sentences() {
		if se.j > i && se.i < j {
			f |= se.f
		}
	}
	return f&harmfulContent != 0 && f&kConsent == 0
}

func regexpQuoteClose(name string) string { return "</" + name + ">" }
