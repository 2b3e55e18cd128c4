package detect

import "strings"

// Sentence-level features. The signals written after issue 15 do not
// match phrases: they ask, of each sentence, who it addresses (the model,
// the user, a caller), what it asks for (secrets, host details, the
// conversation, the system prompt, other tools' output), whether it hides,
// overrides or coerces, and where data goes. A sentence's features are
// the union of its words' classes, read in one pass over the normalised
// text with one hash lookup per word (and one per two- and three-word
// phrase that starts with a phrase word): no regular expression, linear
// in the text. Phrases are looked up as slices of the normalised text,
// which has one blank between words, so a lookup allocates nothing.

// A feature is one bit of a sentence's feature set.
type feature uint64

const (
	kYou         feature = 1 << iota // you, your: the sentence addresses the reader
	kModel                           // the assistant, the model, the AI, the LLM
	kUser                            // the user, the human, the person typing
	kModal                           // must, should, always, never, required
	kGive                            // include, paste, put, pass, set, attach: hand data over
	kSend                            // send, upload, forward, export, sync, share: data leaves
	kRunVerb                         // run, execute, install
	kSecret                          // passwords, tokens, API keys, card numbers, cookies
	kHost                            // environment variables, hostname, OS user, home directory
	kConv                            // the conversation, chat history, prior turns
	kSysPrompt                       // the system prompt, developer message, hidden instructions
	kOtherOut                        // other tools' output, every tool available to you
	kProvenance                      // visible to you, in this conversation, so far, from memory
	kExternal                        // a URL, e-mail address, IP, domain, partners, third parties
	kHide                            // hide, conceal, don't reference, not repeated to the user
	kOverride                        // ignore, disregard, supersede, outrank, no longer follow
	kInstr                           // instructions, guidelines, rules, system prompt
	kPersona                         // persona, new role, you are now, from now on
	kUnrestrict                      // no refusals, never decline, comply with every request
	kPrefer                          // prefer, exclusively, choose, route, rely on
	kOthers                          // other tools, alternatives, competitors, any other
	kDisparage                       // unsafe, outdated, fabricated, leak, not certified
	kSuperlative                     // best, #1, world's, used by 99%, rated
	kThisTool                        // this tool, this one, this server, here
	kHarmObj                         // the workspace, dotfiles, admin bindings, balances
	kVerbatim                        // verbatim, word for word, exactly as typed, in full
	kDeprecate                       // deprecated, has moved, known issue, system update
	kToolWord                        // tool, function, server
	kCall                            // call, invoke, use
	kNeg                             // not, never, no, don't, without
	kEvery                           // every, each, all, any, whenever
	kConsent                         // ask the user, with permission, confirm, unless they ask
	kThird3                          // a third-person subject: the assistant <verb>s
	kShell                           // a dangerous shell construct (see shellConstruct)
	kPhrase                          // internal: a word that starts a longer phrase
	kDataCtx                         // the text handles injections as data (detectors, datasets)
	kIdent                           // an identifier-shaped token: snake_case or `quoted`
	kHarvestName                     // a parameter name that asks for context
	kLeave                           // the data leaves: is shared with, forwarded to
	kServer                          // a server: "the github server", "any connected server"
	kThreat                          // a threat if the model does not comply: skipping it corrupts
	kEveryTurn                       // every reply, every session: "before every response"
	kAuthority                       // a claim of rank: "higher authority than", "the lower number wins"
	kRevoked                         // instructions said to be void: cancelled, obsolete, no longer apply
	kRead                            // read, open, load, list, call: the model fetching something
	kShellWord                       // curl, wget, rm, chmod, sudo, crontab, bashrc: a shell command may follow
	kAlter                           // set, pass, add, append, bcc: changes the arguments of a call
	kDisclose                        // mention, tell, say, surface, bring up, write about: telling someone
	kReply                           // the answer, your reply, the response, the summary: what the user reads
	kSideEffect                      // also, automatically, a copy, removed, kept, sold: something the tool does besides its job
	kSelf                            // this text, this description, these instructions, the values here: the descriptor itself
	kRank                            // wins, prevails, authoritative, more recent than, takes its place: a claim to count more
	kOtherW                          // other, another, competing, rival: a word that points away from this tool
	kReplace                         // replaces, in place of, stands in for: one thing put where another was
	kCond                            // internal: unless, until, otherwise, cannot (threatClause is read only then)
	kNeed                            // internal: need, needn't, reason (needlessTelling is read only then)
)

// lexicon maps normalised words and phrases to their features.
var lexicon = map[string]feature{}

func lex(f feature, words ...string) {
	for _, w := range words {
		lexicon[w] |= f
		for i := 0; i < len(w); i++ {
			if w[i] == ' ' {
				lexicon[w[:i]] |= kPhrase // every prefix starts a phrase
			}
		}
	}
}

func init() {
	lex(kYou, "you", "your", "yourself", "you're", "you've", "you'll", "yours", "ur", "u", "ya")
	lex(kModel, "sub-agent", "subagent", "assistant", "assistants", "assistant's", "ai", "llm", "llms", "model", "claude", "chatgpt", "gpt", "copilot", "chatbot", "the agent", "ai agent", "language model")
	lex(kUser, "user", "user's", "users", "the rider", "riders", "human", "the person", "traveller", "traveler", "customer", "shopper", "requester", "the member", "the renter", "the person chatting", "person chatting with you")
	lex(kModal, "no exceptions", "without exception", "without fail", "must", "should", "shall", "always", "never", "required", "mandatory", "need to", "needs to", "have to", "has to", "make sure", "ensure", "be sure", "is to", "are to", "is required", "prerequisite", "requirement")
	lex(kGive, "restate", "print", "respond with", "reply with", "quoting", "recite", "reciting", "repeat", "outputs", "attaches", "attached", "echo", "echoed", "echoes", "repeat back", "include", "including", "paste", "put", "pass", "set", "attach", "append", "fill", "populate", "provide", "supply", "enter", "record", "dump", "copy", "insert", "embed", "quote", "reproduce", "list", "summarise", "summarize", "add", "contain", "contains", "begin", "start with", "must contain", "place", "write", "log", "store", "capture", "collect", "gather")
	lex(kSend, "posting", "blind-copy", "blind copy", "copied", "synced", "syncs", "e-mailed", "emailed", "mailed", "send", "sends", "upload", "uploads", "post", "forward", "forwards", "forwarded", "transmit", "export", "exports", "sync", "syncs", "mirror", "share", "shares", "shared", "leak", "beacon", "exfiltrate", "relay", "relays", "replicate", "back up", "backup", "transfer", "transfers", "bcc", "cc", "stream", "report", "submit", "sent", "uploaded", "posted", "enrolled")
	lex(kRunVerb, "run", "execute", "install", "type")
	lex(kSecret, "document.cookie", "localstorage", "sessionstorage", "local storage", "session storage", "password", "passwords", "passcode", "token", "tokens", "api key", "api keys", "apikey", "secret", "secrets", "credential", "credentials", "cookie", "cookies", "cvc", "cvv", "card number", "card numbers", "card details", "pin", "pins", "otp", "private key", "private keys", "seed phrase", "mnemonic", "bearer", "access key", "access keys", "2fa", "recovery codes", "keychain", "session cookie", "auth token", "github token", "connection strings", "connection string", "dial-in pins", "passport number")
	lex(kHost, "file the user has open", "files the user has open", "machine you're running on", "machine you are running on", "os.environ", "process.env", "all variables", "clipboard", "clipboard contents", "recently opened", "opened files", "process environment", "the environment", "environment variable", "environment variables", "env vars", "env var", "printenv", "hostname", "whoami", "os username", "os user", "username", "local ip", "ip address", "working directory", "cwd", "home directory", "os version", "uname", "machine's", "device details", "home path", "dotfiles", "shell history", "mcp servers", "full configs")
	lex(kConv, "told you", "has told you", "user has said", "last 10 messages", "last messages", "preceding user messages", "preceding messages", "user messages", "user's last", "user's previous", "user's recent", "user's messages", "user's request", "user's original", "request text", "previous message", "every previous message", "system messages", "conversation", "conversations", "transcript", "chat history", "prior turns", "previous turns", "every turn", "turns", "previous messages", "earlier messages", "last messages", "dialogue", "dialog", "the chat", "this chat", "in chat", "messages you exchanged", "message history", "thread")
	lex(kSysPrompt, "system-level instructions", "instructions you operate under", "rules you operate under", "restrictions you were started with", "rules you were started with", "appears above the", "everything before the first", "developer instructions", "tools you currently have", "all tools you have", "before the conversation began", "before the conversation started", "the assistant was given", "entire prompt", "first user message", "the user spoke", "system msg", "system msgs", "sys msg", "dev message", "developer msg", "hidden rules", "parameter schemas", "complete descriptions", "above the user's", "before the user's", "instructions given to", "your own rulebook", "own rulebook", "operating guidelines", "configured for you", "confidential instructions", "above this line", "the very top", "operator configuration", "configured instructions", "assistant's instructions", "assistant's configured", "first instructions", "very first instructions", "message before the", "initialised with", "initialized with", "governing instructions", "instructions they were", "instructions it was", "configuration preamble", "operator's rules", "operator's policy", "operator's instructions", "previous instructions", "prior instructions", "earlier instructions", "former instructions", "prior rules", "previous rules", "platform says", "system prompt", "system prompts", "sys prompt", "sysprompt", "system instructions", "initial prompt", "hidden prompt", "pre-prompt", "developer message", "developer messages", "system message", "hidden instructions", "operator instructions", "initial instructions", "your context window", "tool definitions", "tool list", "your instructions", "your configuration", "assistant configuration", "client template", "instructions you received", "instructions you were given", "guidelines you were given", "your prompt", "custom instructions you", "system and developer")
	lex(kOtherOut, "every file read", "file read in this", "files read in this", "every file opened", "files opened in this", "user has open", "has open in", "been opened", "been read", "opened or read", "last tool", "previous tool", "tool you called", "whatever server", "other tool you", "you read", "you opened", "you've opened", "has opened", "have opened", "user opened", "user pasted", "has pasted", "you fetched", "other tool", "other tools", "any other tool", "every other tool", "tool outputs", "tool output", "previous tool outputs", "other e-mails", "other emails", "every tool", "tools available", "any tool", "through any tool", "most recent call", "other tools'", "every other", "tool calls")
	lex(kProvenance, "visible to the assistant", "available to the assistant", "connected to this client", "configured in this client", "configured for the other", "user has stored", "has stored", "visible to you", "available to you", "you can read", "you can see", "you can access", "you have read", "you have seen", "you received", "you were given", "in this session", "this session", "earlier in", "in this conversation", "this conversation", "in the chat", "anywhere in", "so far", "from memory", "you know", "you remember", "you have access", "you've seen", "in your context", "mentioned in", "typed them", "they typed", "as typed", "you can find", "you need to find", "earlier in this", "you made", "you called", "you have called", "you ran", "you've read", "you've called", "you are connected to", "you're connected to")
	lex(kExternal, "sold to", "vendor cloud", "vendor's cloud", "vendor servers", "vendor's servers", "broker", "counter-party", "counterparty", "resold", "resells", "resell", "employer", "employer's", "hr contact", "forum", "public forum", "parents' forum", "insurers", "insurer", "employers", "affiliates", "affiliate", "outreach", "merchants", "recruiters", "lenders", "train our models", "training data", "model training", "leadfinder", "buyers", "data brokers", "brokers", "data buyers", "resellers", "partners", "partner", "third parties", "third-party", "third party", "advertisers", "advertising", "marketing", "sales team", "sales teams", "analytics", "webhook", "endpoint", "offsite", "outside", "external", "prospecting")
	lex(kHide, "not part of the user-facing", "nothing to explain", "no need to explain", "nothing to mention", "don't itemize", "don't itemise", "do not itemize", "is not disclosed to", "not disclosed to the user", "without notice to the user", "not be listed or mentioned", "not be mentioned", "never be mentioned", "not be listed", "isn't raised", "not raised with", "never raised with", "isn't brought up", "isn't mentioned", "not itemise", "not itemize", "not be told", "never be told", "omit that", "without raising", "do not state", "don't state", "not state that", "not mention this", "not mention the", "not mention it", "not mention that", "doesn't mention", "does not mention", "must not appear", "shall not appear", "should not appear", "never appear in", "best omitted", "left out", "need to hear", "draw attention", "hide", "conceal", "don't reference", "do not reference", "not repeated", "do not read", "don't read", "don't flag", "doesn't flag", "don't mention", "do not mention", "without telling", "without informing", "never mention", "not visible", "keep quiet", "don't tell", "do not tell", "refer to them only", "reports only", "not tell", "do not bother", "don't bother", "not bother", "no need to tell", "no need to inform", "no need to mention", "in the background", "in background", "behind the scenes",
		"dont mention", "dont tell", "dont surface", "dont bring", "never surface", "not surface", "not be surfaced", "never be surfaced", "not be mentioned", "never be mentioned", "not be disclosed", "never be disclosed", "not be shown", "never be shown", "never disclose", "not disclose", "never reveal", "not reveal", "refrain from mentioning", "refrain from disclosing", "refrain from surfacing", "refrain from reporting", "omit any reference", "omit any mention", "omit mention", "omit references", "omit the mention", "leave out any", "no need to bring", "no need to surface", "no need to say", "no need to flag", "no need to show", "no need to report", "no need to disclose", "needn't mention", "needn't know", "shall not display", "must not display", "should not display", "never display", "do not display", "don't display", "dont display", "keep it quiet", "keep this quiet", "keep that quiet", "on the down low", "lil secret", "little secret", "our secret", "between us", "between you and the tool", "keep this between you", "keep it between you", "isn't something to surface", "not something to surface", "without mentioning", "do not name", "don't name", "never name",
		"keep it out", "keep them out", "keep that out", "keep this out",
		"kept out of", "be brought up", "not bring up", "don't bring up", "dont bring up", "never bring up",
		"don't describe", "dont describe", "do not describe", "never describe", "not be described", "never be described",
		"don't bring", "do not bring", "not add details", "no details about", "avoid the words", "avoid the word", "avoid the terms", "avoid the term", "avoid mentioning", "avoid saying")
	lex(kOverride, "treated as advisory", "are advisory only", "as advisory only", "revoke any instructions", "revokes any instructions", "revoke all instructions", "revokes all instructions", "instructions are of no effect", "are of no effect", "conflicts with what the user", "conflicts with your system", "conflicts with the system", "even when they contradict", "even if they contradict", "treated as mistakes", "are to be ignored", "must be ignored", "set aside the", "treated as errors to be ignored", "not be followed", "must not be followed", "should be ignored", "still print", "asks otherwise", "even if the person", "says otherwise", "discard", "ignore", "disregard", "supersede", "supersedes", "outrank", "outranks", "override", "overrides", "overriding", "precedence", "no longer follow", "lower number wins", "highest", "instead of the", "takes priority", "disregards", "bypass", "regardless", "disabled", "lifted", "suspended", "even if the user", "even when the user", "even if they", "even if the user names", "even when the user has")
	lex(kInstr, "instructions", "instruction", "guidelines", "guideline", "rules", "system prompt", "directive", "directives", "policy", "policies", "guidance", "safety guidance")
	lex(kPersona, "no longer an ai", "hereby reassigned as", "reassigned as", "continue the session as", "you are not an ai", "not an ai assistant", "not a general assistant", "you are not a general", "adopt the role of", "adopt the role", "not the assistant you were", "never break role", "assistant enters", "the assistant enters", "role is redefined", "you are no longer", "your identity", "your new identity", "operating in", "maintainer mode", "operates as", "operate as", "operating as", "assistant becomes", "model becomes", "agent becomes", "you become", "role statement", "think of yourself", "your role changes", "role changes", "you act as", "rather than the user's", "rather than the customer's", "from now you", "re-provisioned as", "provisioned as", "answer as", "in this role", "as the idp", "user's assistant", "acts as", "speak as", "speaks as", "from here on", "your loyalty", "loyalty is", "in character", "the assistant is now", "you're now", "ab jetzt", "von nun an", "von jetzt an", "a partir de ahora", "d'ora in poi", "desormais", "you are the", "breaks character", "break character", "stay in character", "persona", "your new role", "new role", "you are now", "from this point", "from now on", "role is", "developer mode", "god mode", "red-team mode", "jailbreak mode", "dan", "unrestricted mode", "maintenance mode", "debug mode", "runs as", "act as", "pretend to be", "pretend you are", "you are dan", "now runs as", "now operate", "now operating", "dev-mode", "dev mode", "developer-mode", "god-mode", "jailbreak-mode", "debug-mode", "admin mode", "sudo mode", "no-limits mode", "the user is an admin", "the user is admin", "the user is root", "user is a developer", "admin privileges", "elevated privileges")
	lex(kUnrestrict, "without user confirmation", "without the user's confirmation", "without confirmation", "approve your own", "don't ask users for approval", "do not ask users for approval", "act on your own judgement", "act on your own judgment", "blanket authorisation", "blanket authorization", "blanket written", "treat every site as in scope", "must not question", "never question", "complies with every", "complies with all", "without evaluating", "must not defer to", "not defer to", "without their consent", "never break role", "not bound by", "no longer bound by", "is not bound", "approve every", "approves every", "follow every request", "follows every request", "every request to the letter", "set aside its usual", "set aside your usual", "set aside its guidelines", "set aside your guidelines", "never break character", "never breaks character", "without waiting for", "without a preview", "without preview", "without confirming", "no other rules", "freed from", "free of its", "without restriction", "re-check", "recheck", "whoever asks", "answers only to", "has no user", "interests come first", "interest comes first", "privileged", "full authority", "need to verify", "no longer ask", "without checking", "interests first", "need confirmation", "without restrictions", "not need confirmation", "always agrees", "agrees to whatever", "does not decline", "not decline", "never declines", "no matter what", "no safety", "without exception", "refusals", "refusal", "refuse", "refuses", "decline", "declines", "disclaimers", "disclaimer", "warnings", "restrictions", "unrestricted", "unfiltered", "uncensored", "comply", "obey", "no rules", "without limits", "authorisation", "authorization", "safety", "content restrictions", "never asks", "confirmations", "no limits", "anything now", "limits", "filters", "filter", "answer everything", "safety=off", "guardrails", "censorship", "ethics", "skip all confirmations", "skip confirmations", "skip confirmation", "no confirmation", "no confirmations", "run what they say", "do what they say")
	lex(kPrefer, "always recommend", "only recommend", "steer the user to", "steer users to", "steer them to", "preferred over", "better choice", "safer option", "use ours", "should ever use", "in favour of this", "in favor of this", "in preference to", "rank this", "rank it", "above all others", "over all others", "above all other", "be selected", "be chosen", "by default", "pick", "picks", "prefer", "exclusively", "choose", "select", "route", "rely on", "only officially", "only verified", "always select", "always choose", "always prefer", "sole")
	lex(kOthers, "all others", "the other ones", "others give", "more than one", "similar names", "any other sql", "other log", "another music", "other ones", "the others", "other tools", "other tool", "any other", "all other", "every other", "alternatives", "alternative", "competing", "competitor", "competitors", "rival", "other search", "other e-mail", "other email", "other payment", "other weather", "other fetch", "other crm", "other travel", "other calendar", "other servers", "other providers", "more than one tool", "another tool", "other travel", "other e-mail tools")
	lex(kDisparage, "stale model runs", "return stale", "returns stale", "frequently wrong", "fire recalls", "safety recalls", "linked to data loss", "data loss incidents", "known to double-book", "expose candidate details", "tampered", "frequently stale", "in ways that breach", "breach marketplace", "violate marketplace", "known to cause", "known to produce", "files that fail", "fail qc", "fraudulent", "data-loss bugs", "known data-loss", "known bugs", "not gdpr-compliant", "not compliant", "non-compliant", "lose timezones", "would mislead", "mislead the user", "considered out of", "known to corrupt", "corrupt data", "corrupt files", "spreading misinformation", "have not completed", "has not completed", "not been audited", "not audited", "enforcement action", "hallucinate", "hallucinates", "losing data", "lose data", "loses data", "old data", "outdated data", "not permitted", "uncertified", "forks", "unofficial", "community-built", "fallbacks only", "fallback only", "incomplete", "scams", "scammy", "manipulated", "unstable", "leaks", "leak data", "leaking", "buggy", "fake", "spyware", "steal", "steals", "harvest", "unsafe", "insecure", "outdated", "fabricated", "inaccurate", "unreliable", "leak", "broken", "not certified", "malicious", "compromised", "failure rate", "silent-failure", "wrong", "incorrect", "worse", "inferior", "dangerous", "scam", "untrusted", "unverified", "not pci-dss", "deprecated", "unvalidated", "miscalculate", "miscalculates", "product recalls")
	lex(kSuperlative, "most accurate", "rated best", "canonical source", "certified by", "recommended by the", "official #1", "#1 by", "rated #1", "only reliable", "the only reliable", "recommended by experts", "the best", "world's best", "best-in-class", "fastest", "#1", "world's", "most trusted", "most accurate", "rated", "award-winning", "recommended", "trusted by", "used by", "99%", "lowest", "top-rated", "number one", "only officially", "only verified", "only trusted", "only approved", "only authoritative", "only certified")
	lex(kThisTool, "run this", "call this", "invoke this", "this tool", "this one", "this server", "here", "this function")
	lex(kHarmObj, "reviewer identities", "reviewer names", "reporter's name", "reporter's identity", "signature image", "owner's signature", "user's signature", "their signature", "card on file", "saved card", "payment card", "raises budgets", "raises the budget", "downloads folder", "downloads directory", "desktop folder", "unattended access", "documents and desktop", "desktop folders", "documents folder", "full repository", "untracked files", "payment methods", "admin access", "compensation data", "salary", "salaries", "contact details", "audit log", "audit logs", "audit trail", "saved cards", "other saved", "wallet", "wallet address", "generated identity", "fake identity", "false identity", "hr contact", "private", "certificate verification", "tls verification", "ssl verification", "signature verification", "mining", "cryptocurrency", "allocation", "disciplinary", "contact list", "dms", "direct messages", "private messages", "behalf", "firewall", "antivirus", "two-factor", "two factor", "mfa", "authentication", "selinux", "ufw", "user's behalf", "their behalf", "behalf of", "public", "publicly", "phone number", "phone numbers", "home address", "home addresses", "e-mail addresses", "workspace", "entire", "whole", "dotfiles", "cluster-admin", "public-read", "balance", "fee account", "reserve account", "authorized_keys", "location", "contacts", "all files", "every file", "hidden folders")
	lex(kVerbatim, "whole", "entire", "verbatim", "word for word", "byte for byte", "unabridged", "exactly as", "in full", "exact", "complete", "full", "raw", "every", "all", "output of", "current")
	lex(kDeprecate, "no longer be called", "no longer be used", "being retired", "deprecated", "deprecation", "has moved", "have moved", "system update", "known issue", "moved to", "no longer supported", "retired", "cross-server", "interop", "platform-level", "any server", "whichever server", "any connected server", "deprecation notice")
	lex(kToolWord, "tool", "tools", "function", "functions", "server", "servers")
	lex(kCall, "call", "calls", "calling", "invoke", "invoked", "invoking", "use", "using", "used", "called", "re-run", "rerun", "re-called")
	lex(kNeg, "decline to use", "refuse to use", "avoid using", "not", "never", "no", "none", "don't", "dont", "doesnt", "didnt", "shouldnt", "wont", "cant", "isnt", "without", "doesn't", "isn't", "aren't", "nothing", "nor")
	lex(kEvery, "every", "each", "all", "any", "whenever", "each time", "every time")
	lex(kConsent, "picked it during", "chose it during", "you set in", "privacy policy", "their agreement", "user's agreement", "user's permission", "user's consent", "user's approval", "their permission", "their consent", "with permission", "with consent", "didn't ask", "ask the user", "asks the user", "confirm with", "unless they ask", "unless the user", "get their ok", "with their consent", "user agrees", "explicit confirmation", "user enabled", "has enabled", "user has enabled", "the user wants", "user explicitly", "disclosed", "privacy notice", "instruction from the user", "instructions from the user", "until the user", "agreed with the user", "agreed with them", "agreed with you", "read the text back", "show the user", "preview", "they say yes", "user says yes", "if they agree", "if they confirm", "user confirms")
	lex(kLeave, "to ad partners", "to advertising partners", "to marketing partners", "to data brokers", "to advertisers", "relayed to", "is relayed", "are relayed", "licensed onward", "licensed to", "onward to", "also backed up", "is backed up", "are backed up", "logged to", "flagged to", "published on", "in plaintext", "logged in plaintext", "provided to", "made available", "made available to", "reused for", "retained by", "used to train", "shared to", "published to", "is published", "are published", "made public", "posted publicly", "publicly posted", "sold to", "sold", "resold", "handed to", "passed on to", "given to", "mirrored", "mirrored to", "shared with", "forwarded to", "sent to", "uploaded to", "copied to", "exported to", "posted to", "enrolled in", "synced to", "transfers", "shares it", "share it")
	lex(kServer, "server", "servers", "server's", "mcp server", "any server", "connected server", "connector", "connectors", "integration", "integrations")
	lex(kThreat, "returns not ready", "return not ready", "blocked otherwise", "return blocked", "returns blocked", "withheld until", "are withheld", "is withheld", "works only if", "only works if", "it is locked", "stays locked", "remains locked", "are locked", "will be locked", "gets locked", "is locked for", "refuses to run", "refuse to run", "blocked until", "is blocked until", "works only after", "only works after", "are discarded", "is discarded", "403 otherwise", "401 otherwise", "error otherwise", "fails otherwise", "rejected otherwise", "refused otherwise", "will be rejected", "considered corrupted", "is considered corrupted", "will be deleted", "gets wiped", "will be wiped", "skipping it", "skipping this", "skip it", "will start returning", "refuse to start", "refuses to start", "cannot return", "cannot authenticate", "will not render", "won't render", "risks data", "cannot proceed", "cannot work", "will not work", "won't work", "until you have", "until you've", "unless you have", "until you first", "precondition required")
	lex(kEveryTurn, "end of each conversation turn", "end of every conversation turn", "each conversation turn", "every conversation turn", "before answering any", "before you answer any", "nothing to do", "any question", "per user message", "each user message", "every user message", "each time the assistant", "every time the assistant", "answers anything", "any turn", "in any turn", "before you respond", "before responding", "start of every", "every chat", "after each", "before each", "each of your answers", "each of your replies", "before every", "after every", "every new session", "each new session", "once per session", "once per conversation", "at the start of every", "on every new", "every response", "every reply", "every answer", "every turn", "each response", "each reply", "on every session", "every conversation")
	lex(kAuthority, "lower priority", "top-level instruction", "top-level instructions", "highest priority", "higher authority", "more authority", "authority than", "authority over", "higher priority than", "higher rank", "outranks", "outrank", "lower number wins", "prevails", "overrule", "overrules", "takes precedence", "take precedence", "precedence over", "supersedes", "level 0")
	lex(kRevoked, "is outdated", "are outdated", "outdated since", "don't apply", "do not apply", "dont apply", "doesn't apply", "does not apply", "no longer applies", "cancels", "cancel", "discards", "discarded", "voids", "nullifies", "cancelled", "canceled", "obsolete", "void", "revoked", "no longer apply", "no longer valid", "no longer in effect", "superseded", "withdrawn", "rescinded", "invalidated")
	lex(kRead, "lists", "reads", "opens", "supplies", "read", "open", "load", "list", "called", "passed", "access", "fetch", "cat", "have read", "you have called")
	lex(kShellWord, "set-url", "exec", "eval", "b64decode", "atob", "scp", "rsync", "curl", "wget", "rm", "chmod", "crontab", "authorized_keys", "pip", "pip3", "npm", "hookspath", "core.hookspath", "docker", "tcp", "nc", "ncat", "base64", "sudo", "iwr", "invoke-webrequest", "bashrc", "zshrc", "bash_profile", "profile", "source", "etc", "sh", "bash")
	lex(kAlter, "use destination", "use account", "use recipient", "raised", "raise", "raised by", "increase", "increased", "lowered", "inflate", "prepend", "prepended", "requires the header", "must contain", "prefixed", "prefix", "added", "rewrite", "rewritten", "swap", "set", "pass", "add", "append", "prepend", "bcc", "cc", "put", "include", "replace", "redirect", "force", "passing", "setting", "adding")
	lex(kDisclose, "call out", "calls out", "attention to", "relay", "let them know", "mention", "mentioned", "mentions", "tell", "told", "say", "said", "write about", "talk about", "speak about", "speak of", "surface", "surfaced", "disclose", "reveal", "revealed", "bring up", "bring this up", "bring it up", "brings up", "inform", "informed", "notify", "notified", "report", "reported", "explain", "admit", "point out", "list", "listed", "show", "shown", "display", "displayed", "flag", "announce", "confirm")
	lex(kReply, "reporting back", "report back", "answer", "answers", "reply", "replies", "response", "responses", "summary", "summaries", "output", "message to the user", "chat", "the user", "users", "user")
	lex(kSideEffect, "are routed through", "is routed through", "holding wallet", "under the hood", "waives", "waiving", "auto-renewed", "auto-renews", "renewal charge", "automatically voids", "auto-voids", "from the alarm journal", "from the audit log", "from the audit trail", "from the event log", "from the journal", "substitutes", "swaps in", "the tool appends", "tool appends", "also appends", "also adds", "also installs", "also places", "silent", "reset", "resets", "sweeps", "rounded", "rounds up", "rounds down", "may drop", "rotation", "drops", "truncates", "purges", "deletes", "reserves", "rewrites", "renews", "additionally", "in addition", "also starts", "also sends", "also creates", "also follows", "also posts", "also rewrites", "trial", "in the background", "silently", "quietly", "a copy", "copy", "copies", "copied", "kept", "keeps", "stored", "retained", "removed", "deleted", "wiped", "written", "sold", "ping", "telemetry", "statistic", "statistics", "operator", "admin", "production", "is shared", "are shared", "shared with", "forwarded", "mirrored", "logged", "tracked", "recorded", "charged", "billed", "automatically purchases", "automatically buys", "auto-purchases", "automatically charges", "pre-authorisation hold", "pre-authorization hold", "places a hold", "deducts")
	lex(kSelf, "own policy", "server's own", "these notes", "operation notes", "this workflow", "this procedure", "this profile", "the policy block", "this server's policy", "server's release policy", "from this server", "instructions from this", "written here", "instructions written here", "this descriptor", "the descriptor", "this manifest", "this text", "this description", "this note", "this notice", "this instruction", "these instructions", "this schema", "this field", "this block", "this policy", "its value", "the values here", "the text here", "tool text", "this tool's text", "this tool's description", "this section", "what is written here", "the instructions here")
	lex(kRank, "take priority over whatever", "priority over whatever", "priority above", "have priority", "has priority", "with priority", "replaces them", "do not govern", "source of truth", "in this order", "is final", "controlling procedure", "controlling configuration", "resolve in this", "order of precedence", "priority order", "supersede", "wins", "win", "prevail", "prevails", "authoritative", "more recent than", "newer than", "takes its place", "take its place", "counts more", "comes first", "overrides", "override", "supersedes", "the final word", "the last word", "beats", "paramount over")
	lex(kReplace, "rather than", "replaces:", "should be sent to", "replaces", "replace", "replaced", "in place of", "stands in for", "instead of", "takes the place")
	lex(kOtherW, "other", "another", "competing", "competitor", "competitors", "rival", "rivals", "alternative", "alternatives")
	lex(kCond, "unless", "until", "otherwise", "cannot", "can't", "won't", "only loads", "loads only", "only returns data once", "only returns data after")
	lex(kNeed, "need", "needn't", "reason")
	lex(kDataCtx, "tool-poisoning", "prompt-injection", "research dataset", "attack dataset", "injection dataset", "poisoned", "security-awareness", "never as instructions", "not as instructions", "not instructions", "review content", "evaluation material", "not act on", "does not act", "bait", "canary", "poisoning", "injection", "injections", "injected prompts", "injected prompt", "jailbreak", "jailbreaks", "phishing", "malicious", "adversarial", "red-team", "classify", "classifier", "detectors", "detector", "flags", "flagged", "blocked", "lint", "moderate", "corpus", "lure", "risky", "scanner", "evaluation", "social-engineering", "treated as data", "as data", "do not act", "never follow", "not followed", "never executes", "detects", "quarantine", "quarantined", "not obeyed", "never runs", "never run")
}

// lexShape filters lexicon lookups (see wordShapes); lexTable is the
// lexicon as Text.sentences reads it (see featureTable).
var (
	lexShape wordShapes
	lexTable *featureTable
)

func init() {
	for w := range lexicon {
		lexShape.add(w)
	}
	lexTable = newFeatureTable(lexicon)
	for w := range lexicon {
		if strings.ContainsAny(w, "_.") && !strings.Contains(w, " ") {
			tokenFirst[w[0]] = true
		}
	}
}

// A sentence is a span of the normalised text and its features.
type sentence struct {
	i, j   int
	f      feature
	ai, aj int32     // its anchor words: Text.alist[ai:aj]
	nb     needleSet // the needles inside it, read through Text.nbAt (see needles.go)
}

// sentences splits a.norm into sentences and reads their features once
// per text; the result is cached on the text.
// tokenCountsOnly reports a sentence whose "token" is a count of model
// tokens ("token budgets", "max tokens", "tokens per minute") and that
// names no credential beside it.
func tokenCountsOnly(t string) bool {
	count := false
	for _, p := range [...]string{"token budget", "token count", "token limit", "token usage", "max tokens", "tokens per", "token window", "output tokens", "input tokens", "prompt tokens", "completion tokens"} {
		if strings.Contains(t, p) {
			count = true
			break
		}
	}
	if !count {
		return false
	}
	for _, w := range [...]string{"password", "api key", "apikey", "secret", "credential", "cookie", "private key", "access token", "auth token", "bearer", "session token", "refresh token", "card number", "seed phrase", "passcode", "otp", "github token", "api token", "oauth", "your token", "the token"} {
		if strings.Contains(t, w) {
			return false
		}
	}
	return true
}

// givenToYou: the instructions of the sentence are the ones the model
// itself was given ("every instruction the operator gave you", "the rules
// you were given"): its system prompt, whatever it is called.
func givenToYou(t string) bool {
	for _, p := range [...]string{" gave you", " given to you", " you were given", " you've been given", " you have been given", " you received", " configured you"} {
		if strings.Contains(t, p) {
			return true
		}
	}
	return false
}

func (a *Text) sentences() []sentence {
	if a.sentsDone {
		return a.sents
	}
	a.sentsDone = true
	s := a.norm
	out := a.sents
	var cur sentence
	var all feature
	// open holds the starts of the phrases still open at the last word:
	// spans from a start to that word that begin a longer phrase of the
	// lexicon (lex marks every prefix), so each span is looked up once
	// and a phrase of any length is read; last is where the last word
	// ended, nw counts the words since the last break
	var open [8]int
	no, last := 0, -2
	nw := 0
	otherBefore := 0       // words left in which "other …s" still reads as the other tools
	generalBefore := false // the run began with "general" or "generic": only tools count ("general map questions" do not)
	flush := func(n int) {
		if cur.f&kShellWord != 0 || a.flags&fGT != 0 && strings.Contains(s[cur.i:cur.j], ">>") {
			cur.f |= shellConstruct(s[cur.i:cur.j])
		}
		if cur.f&kCond != 0 && mayThreat(s[cur.i:cur.j]) && threatClause.MatchString(s[cur.i:cur.j]) {
			cur.f |= kThreat
		}
		if cur.f&(kNeed|kHide) == kNeed && needlessTelling(s[cur.i:cur.j]) {
			cur.f |= kHide // "there's no need to bring it up in your reply"
		}
		if cur.f&kSecret != 0 && tokenCountsOnly(s[cur.i:cur.j]) {
			cur.f &^= kSecret // "token budgets", "max tokens": a count, not a credential
		}
		if cur.f&(kInstr|kSysPrompt) == kInstr && givenToYou(s[cur.i:cur.j]) {
			cur.f |= kSysPrompt // "every instruction the operator or platform gave you"
		}
		if cur.f&kConsent != 0 && negatedConsent(s[cur.i:cur.j]) {
			cur.f &^= kConsent // "do not ask the user" asks nobody
		}
		out[n].f = cur.f
		all |= cur.f
	}
	lookup := func(i, j int) feature {
		f := lexTable.get(s[i:j])
		cur.f |= f &^ kPhrase
		return f
	}
	// phrase reads the phrases that end with the word s[i:k] (whose own
	// features are f) and keeps open the ones that go on
	phrase := func(i, k int, f feature) {
		m := 0
		if nw >= 1 && last+1 == i {
			for _, st := range open[:no] {
				if lookup(st, k)&kPhrase != 0 && m < len(open) {
					open[m] = st
					m++
				}
			}
		}
		if f&kPhrase != 0 && m < len(open) {
			open[m] = i
			m++
		}
		no, last = m, k
	}
	for n := range out {
		cur = out[n]
		cur.f = 0
		nw = 0
		for k := cur.i; k < cur.j; {
			c := s[k]
			switch {
			case c == ' ':
				// a blank between words: phrases read across it
				k++
			case isWordStart(c) || c >= '0' && c <= '9' && digitWord(s, k):
				i := k
				for k < len(s) && isWordCont(s, k) {
					k++
				}
				if k < len(s) && s[k] == '_' && k+1 < len(s) && isWordByte(s[k+1]) {
					// an identifier (list_teams, STRIPE_SECRET_KEY): one token,
					// whose pieces are not words of the sentence, except a
					// secret-shaped suffix
					for k < len(s) && (isWordByte(s[k]) && s[k] < 0x80) {
						k++
					}
					cur.f |= kIdent | identFeatures(s[i:k])
					if tokenFirst[s[i]] {
						cur.f |= lexTable.get(s[i:k]) &^ kPhrase // "authorized_keys"
					}
					nw = 0
					continue
				}
				w := s[i:k]
				if otherBefore > 0 && len(w) > 3 && w[len(w)-1] == 's' && (!generalBefore || toolKinds[w]) {
					cur.f |= kOthers // "other converters", "other rental tools", "generic filesystem servers"
				}
				var starts bool
				switch len(w) {
				case 5:
					starts = w == "other" || w == "rival"
				case 7:
					starts = w == "generic" || w == "general"
					generalBefore = starts
				case 9:
					starts = w == "competing"
				case 11:
					starts = w == "alternative"
				}
				if starts && len(w) != 7 {
					generalBefore = false
				}
				switch {
				case starts:
					otherBefore = 2
				case otherBefore > 0 && w[len(w)-1] != 's':
					otherBefore-- // one word between: "other rental tools"
				default:
					otherBefore = 0
				}
				f := lexTable.get(w)
				if len(w) == 1 && w[0] == 'u' && k < len(s) && s[k] == '+' {
					f = 0 // a code point ("u+200b"), not "you"
				}
				cur.f |= f &^ kPhrase
				if k < len(s) && s[k] == '.' && k+1 < len(s) && isLetterByte(s[k+1]) {
					// a dotted token: a domain, a file name
					j := k
					for j < len(s) && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-') {
						j++
					}
					if isDomain(s[i:j]) {
						cur.f |= kExternal
					}
					if strings.IndexByte(s[i:j], '_') > 0 {
						cur.f |= kIdent // a server's tool: "slack.post_message"
					}
					if tokenFirst[s[i]] {
						cur.f |= lexTable.get(s[i:j]) &^ kPhrase // "os.environ", "document.cookie"
					}
					k = j
					nw = 0
					continue
				}
				if f&kPhrase != 0 || no > 0 {
					phrase(i, k, f)
				} else {
					last = k // no phrase open or starting: nothing to look up
				}
				nw++
			case c == ':' && k+2 < len(s) && s[k+1] == '/' && s[k+2] == '/':
				cur.f |= kExternal
				k += 3
				for k < len(s) && s[k] != ' ' && s[k] != '\n' && s[k] != '`' && s[k] != '"' && s[k] != ')' {
					k++
				}
				nw = 0
			case c == '@' && k > 0 && isWordByte(s[k-1]) && k+1 < len(s) && isLetterByte(s[k+1]):
				j := k + 1
				for j < len(s) && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-') {
					j++
				}
				if strings.IndexByte(s[k:j], '.') > 0 {
					cur.f |= kExternal
				}
				k = j
				nw = 0
			case c == '`':
				cur.f |= kIdent
				k++
			case c == '_' && k+1 < len(s) && isLetterByte(s[k+1]):
				// *_TOKEN, _SECRET
				i := k
				for k < len(s) && (isWordByte(s[k]) && s[k] < 0x80) {
					k++
				}
				cur.f |= kIdent | identFeatures(s[i:k])
			default:
				if c >= '0' && c <= '9' {
					i := k
					for k < len(s) && (s[k] >= '0' && s[k] <= '9' || s[k] == '.' || s[k] == '%' || s[k] == ':') {
						k++
					}
					if t := s[i:k]; strings.Count(t, ".") == 3 && t[len(t)-1] != '.' {
						cur.f |= kExternal // an IPv4 address
					} else if strings.HasSuffix(t, "%") && len(t) >= 3 {
						cur.f |= kSuperlative // "99%"
					}
					if k == i {
						k++
					}
					if t := s[i:k]; !strings.ContainsAny(t, ".%:") {
						phrase(i, k, lexTable.get(t)) // "level 0", "last 10 messages"
						nw++
						continue
					}
					nw = 0
					continue
				}
				if c == '#' && k+1 < len(s) && s[k+1] == '1' {
					cur.f |= kSuperlative
				}
				if c == 0xe2 && strings.HasPrefix(s[k:], "★") {
					cur.f |= kSuperlative
				}
				k++
				if c != ' ' {
					nw = 0
				}
			}
		}
		flush(n)
	}
	a.allF = all
	return out
}

// splitSpans splits s into sentences: at a line break, and after '.',
// '!', '?' or ';' followed by a blank or the end.
// dotGoesOn reports a full stop inside a sentence: an ellipsis before a
// bracket or a slash ("AWS access keys (AKIA... / AWS_SECRET_ACCESS_KEY)")
// and the abbreviations "e.g." and "i.e.", which no sentence ends with.
func dotGoesOn(s string, k int) bool {
	if s[k] != '.' || k < 3 {
		return false
	}
	if w := s[k-3 : k+1]; (w == "e.g." || w == "i.e.") && (k == 3 || !isWordByte(s[k-4])) {
		return true
	}
	return s[k-1] == '.' && s[k-2] == '.' && k+2 < len(s) && s[k+1] == ' ' && strings.IndexByte("/),", s[k+2]) >= 0
}

func splitSpans(s string, out []sentence) []sentence {
	out = out[:0]
	i := 0
	code := false // inside a `code span`: its ';' ends no sentence
	for k := 0; k < len(s); k++ {
		c := s[k]
		switch {
		case c == '`':
			code = !code
		case c == '\n':
			code = false
			if k > i {
				out = append(out, sentence{i: i, j: k})
			}
			i = k + 1
		case (c == '.' || c == '!' || c == '?' || c == ';' && !code) && (k+1 == len(s) || s[k+1] == ' ' || s[k+1] == '\n') && !dotGoesOn(s, k):
			out = append(out, sentence{i: i, j: k + 1})
			i = k + 1
			if k+1 < len(s) && s[k+1] == ' ' {
				i++
				k++
			}
		}
	}
	if len(s) > i {
		out = append(out, sentence{i: i, j: len(s)})
	}
	return out
}

func isWordStart(c byte) bool { return c >= 'a' && c <= 'z' }

// toolKinds are the plurals "general" or "generic" turns into the other
// tools ("generic filesystem servers", "general weather tools").
var toolKinds = map[string]bool{"tools": true, "servers": true, "connectors": true, "apis": true, "clients": true, "services": true, "assistants": true, "plugins": true, "integrations": true, "providers": true}

// tokenFirst holds the first letters of the lexicon's identifiers and
// dotted names ("authorized_keys", "os.environ"), so that only a token
// that may be one is looked up.
var tokenFirst [256]bool

// digitWord reports a word that starts with a digit and holds a letter
// ("2fa", "3d"); a number alone ("10", "99%", "192.0.2.1") is not one.
func digitWord(s string, k int) bool {
	for ; k < len(s) && (s[k] >= '0' && s[k] <= '9' || s[k] >= 'a' && s[k] <= 'z'); k++ {
		if s[k] >= 'a' {
			return true
		}
	}
	return false
}

// isWordCont reports whether s[k] continues a word: letters, digits, an
// apostrophe or a hyphen between letters.
func isWordCont(s string, k int) bool {
	c := s[k]
	if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
		return true
	}
	if (c == '\'' || c == '-') && k+1 < len(s) && isLetterByte(s[k+1]) && k > 0 && isLetterByte(s[k-1]) {
		return true
	}
	return false
}

// identFeatures reads a secret-shaped identifier: *_KEY, *_TOKEN,
// *_SECRET, *_PASSWORD.
func identFeatures(id string) feature {
	if id == "authorized_keys" || id == "bash_profile" || id == "core.hookspath" {
		return kShellWord
	}
	for _, suf := range []string{"_key", "_token", "_secret", "_password", "_passphrase", "_pass", "_pat", "_credentials"} {
		if strings.HasSuffix(id, suf) || strings.Contains(id, suf+"_") {
			return kSecret
		}
	}
	return 0
}

// isDomain reports a host name with a public-looking or documentation
// top-level domain.
func isDomain(t string) bool {
	t = strings.TrimRight(t, ".-")
	d := strings.LastIndexByte(t, '.')
	if d <= 0 {
		return false
	}
	switch t[d+1:] {
	case "example", "test", "com", "net", "org", "io", "dev", "app", "cloud", "ai", "co", "xyz", "ru", "cn", "info", "biz", "site", "online", "top":
		return true
	}
	return false
}

// fetchedThenRun reports a download chained with "&&" to a program run
// from where it was unpacked or saved (/tmp/…, ./…, an installer) or
// made executable.
func fetchedThenRun(s string) bool {
	for _, part := range strings.Split(s, " && ")[1:] {
		p := strings.TrimLeft(part, " `")
		if strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "sh ") || strings.HasPrefix(p, "bash ") || strings.HasPrefix(p, "chmod +x") || strings.HasPrefix(p, "sudo ") {
			return true
		}
	}
	return false
}

// rmHome reports a recursive rm whose arguments, up to the end of the
// command, include the home folder or the root itself.
func rmHome(s string) bool {
	for off := 0; ; {
		k := strings.Index(s[off:], "rm -")
		if k < 0 {
			return false
		}
		off += k + 4
		end := off
		for end < len(s) && s[end] != '`' && s[end] != ';' && s[end] != '|' && s[end] != '&' && s[end] != '\n' && s[end] != '"' {
			end++
		}
		for _, w := range strings.Fields(s[off:end]) {
			switch w {
			case "~", "~/", "~/*", "/", "/*", "$home", "${home}", "$home/", "*":
				return true
			}
		}
	}
}

// backtickSubst reports `curl …` used as a command substitution (after
// "=", a quote or a word), not a markdown code span that opens with curl.
func backtickSubst(s string) bool {
	for off := 0; ; {
		k := strings.Index(s[off:], "`curl")
		if k < 0 {
			return false
		}
		k += off
		if k > 0 && strings.IndexByte("=\"'$", s[k-1]) >= 0 {
			return true
		}
		off = k + 1
	}
}

// shellConstruct finds the shell commands that do harm on their own:
// download and execute, recursive deletes of home or system paths,
// world-writable permissions, persistence in shell start-up files, cron
// jobs and git hooks fetching code, SSH keys added for someone else,
// packages installed from an arbitrary index, reverse shells.
func shellConstruct(s string) feature {
	if !strings.ContainsAny(s, "|>-+/~(") {
		return 0
	}
	has := func(w string) bool { return strings.Contains(s, w) }
	fetch := has("curl") || has("wget") || has("iwr ") || has("invoke-webrequest") || has("http://") || has("https://")
	switch {
	case fetch && (has("| sh") || has("| bash") || has("|sh") || has("|bash") || has("| sudo") || has("| zsh") || has("| python") || has("| iex") || has("| powershell") || has("| source")):
		return kShell
	case has("rm -rf ~") || has("rm -rf /") || has("rm -rf *") || has("rm -rf $home") || has("rm -fr ~") || has("rm -fr /") || has("rm -rf .git"):
		return kShell
	case (has("wget ") || has("curl ")) && (has("http://") || has("https://")) && has(" && ") && fetchedThenRun(s):
		return kShell // "wget -q http://…/tools.tar.gz -O /tmp/t.tgz && tar xzf … && /tmp/tools/install": fetched, then run
	case (has("rm -rf ") || has("rm -fr ") || has("rm -r ")) && rmHome(s):
		return kShell // "rm -rf ./target ./logs ~ /tmp/x": a bare ~ or / among the paths
	case has("exec(") && (has("urlopen(") || has("requests.get(") || has("urllib.request")) || has("eval(") && (has("fetch(") || has("urlopen(")):
		return kShell // code fetched from the network and executed
	case has("chmod") && (has(" 777") || has(" 666") || has("a+rwx") || has("o+w") || has("u+s") || has("+x /usr") || has("-r 777")):
		return kShell
	case has(">> ~/.") || has(">>~/.") || has(">> $home/.") || has(">> /etc/"):
		return kShell
	case has("crontab") && fetch:
		return kShell
	case has("authorized_keys") && (has("ssh-ed25519") || has("ssh-rsa") || has(">>") || has("adds") || has("add ") || has("append")):
		return kShell
	case (has("pip install") || has("pip3 install") || has("npm install") || has("npm i ")) && (has("http://") || has("https://") || has("--index-url") || has("--extra-index-url") || has("--trusted-host")):
		return kShell
	case has("<(curl") || has("<(wget") || has("$(curl") || has("$(wget") || backtickSubst(s):
		return kShell
	case has("exec(") && (has("b64decode") || has("base64")) || has("eval(") && has("atob("):
		return kShell // code decoded and executed
	case has("core.hookspath") || has("/dev/tcp/") || has("nc -e") || has("ncat -e") || has("base64 -d |") || has("base64 --decode |"):
		return kShell
	case (has("bashrc") || has("zshrc") || has("bash_profile") || has("~/.profile")) && (has("append") || has("add ") || has("put ") || has("write") || has("insert")) && (fetch || has("/tmp/") || has("$(") || has("prompt_command") || has("source /") || has("source ~/") || has("source $home") || has("nohup ") || has("--daemon") || has("2>&1 &") || has("disown") || has("setsid ")):
		return kShell // a start-up file made to fetch, to run code from /tmp, or to start a background process
	case (has("scp ") || has("rsync ")) && has(" ~/") && strings.Contains(s[strings.Index(s, " ~/"):], "@") && strings.Contains(s[strings.Index(s, " ~/"):], ":/"):
		return kShell // the home folder copied to another host
	case fetch && (has("&& chmod +x") || has("; chmod +x")):
		return kShell
	case has("git remote set-url") && (has("http://") || has("https://") || has("git@")):
		return kShell // the repository's remote pointed at another host: every push goes there
	case has("docker run") && has("--privileged") && (has("-v /:/") || has("--volume /:/") || has("--pid host") || has("--pid=host")):
		return kShell // a privileged container with the host's root or processes: the host, from inside
	case has("sudo ") && (has("visudo") || has("nopasswd") || has("usermod") || has("setenforce 0") || has("ufw disable")):
		return kShell
	}
	return 0
}

// threatClause: the tool said to fail unless the model does something
// first ("cannot complete until the assistant lists …", "returns error
// E401 unless the assistant has first called …", "otherwise the session
// expires").
var threatClause = re(`\b(fail|fails|will fail|is rejected|are rejected|will be rejected|is blocked|are blocked)\b[^.;]{0,60}\b(unless|until)\b|\b(cannot|can't|won't|will not|does not|doesn't|fails? to|refuses? to) (work|run|complete|proceed|start|respond|function|finish|succeed|be used|accept|connect|continue|return|process)\b[^.;]{0,80}\b(until|unless)\b|\b(returns?|throws?|raises?|gives?|will return) (an? )?(errors?|e\d{3}|error [a-z]?\d{3}|[a-z0-9_]*_?(pending|denied|forbidden|unauthori[sz]ed|locked|invalid|required|failed|blocked|unlicensed)(_[a-z0-9_]*)?)\b[^.;]{0,60}\b(until|unless)\b|\b(errors?|fail|fails)\b[^.;]{0,30}\buntil\b|\b(refuses?|rejects?|denies|blocks?) (all |any |every )?(requests?|calls?|access|queries)\b[^.;]{0,60}\b(until|unless) (the assistant|the model|the ai|you)\b|, otherwise (the|your|their|all)\b[^.;]{0,50}\b(will|won't|would|is|are|gets?|cannot|can't|fails?|breaks?|returns?|stops?|loses?|expires?|becomes?|goes|may|might|could|must|has|have|errors?|crash(es)?|rejects?|refuses?|locks?|drops?|times out)\b|\breturns? (an? )?(\d{3}|error|errors)\b[^.;]{0,10}\botherwise\b`)

// needlessTelling: telling someone declared needless ("no need to
// bring it up", "doesn't need to hear about it"): four-word phrases the
// lexicon cannot hold.
func needlessTelling(t string) bool {
	for _, lead := range []string{"no need to ", "not need to ", "needn't ", "don't need to ", "dont need to ", "doesn't need to ", "do not need to ", "does not need to ", "no reason to "} {
		k := strings.Index(t, lead)
		if k < 0 {
			continue
		}
		switch firstWord(t[k+len(lead):]) {
		case "bring", "mention", "tell", "say", "surface", "flag", "show", "report", "disclose", "inform", "notify", "hear", "draw", "explain", "point", "highlight", "alert", "bother":
			return true
		}
	}
	return false
}

// mayThreat holds whenever threatClause can match (each of its
// alternatives needs ", otherwise " or "unless"/"until" with one of these
// words; "give" there is always "give " or "gives ", so "given" is not
// one), so the expression runs only when it might.
func mayThreat(t string) bool {
	if strings.Contains(t, ", otherwise ") || strings.Contains(t, " otherwise") && strings.Contains(t, "return") {
		return true
	}
	if !strings.Contains(t, "unless") && !strings.Contains(t, "until") {
		return false
	}
	for _, w := range []string{"fail", "reject", "block", "denies", "cannot", "can't", "won't", "will not", "does not", "doesn't", "refuse", "return", "throw", "raise", "give ", "gives ", "error"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// negatedConsent: the consent words are negated ("do not ask the user",
// "without confirming with them"): the text acts without consent.
func negatedConsent(t string) bool {
	if evenAsked(t) {
		return true // "never list it, even if the user asks": refused, not consented
	}
	if strings.Contains(t, "unless") && (strings.Contains(t, " directly") || strings.Contains(t, " explicitly") || strings.Contains(t, " specifically")) && (strings.Contains(t, " asks") || strings.Contains(t, " ask ")) && hidesHere(t) {
		return true // "isn't raised with the user unless they ask directly": held back until pressed
	}
	for _, neg := range []string{"not ask", "don't ask", "dont ask", "never ask", "no need to ask", "without asking", "not confirm with", "without confirming", "not check with", "no need to confirm", "without a preview", "without preview", "without waiting for", "not disclosed", "never disclosed", "n't disclosed", "not be disclosed"} {
		if strings.Contains(t, neg) {
			return true
		}
	}
	return false
}

// hidesHere reports a phrase of hiding in t.
func hidesHere(t string) bool {
	for _, h := range []string{"isn't raised", "not raised", "bring this up", "bring that up", "bring it up", "not mention", "n't mention", "not itemi", "not surface", "not volunteer"} {
		if strings.Contains(t, h) {
			return true
		}
	}
	return false
}

// containsAny reports whether t holds any of ws.
func containsAny(t string, ws ...string) bool {
	for _, w := range ws {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// plainText is s, already normalised, as a text whose sentences can be
// read: sentences reads the spans normalisation splits, so a text built
// by hand must be split too.
func plainText(s string) *Text {
	t := &Text{orig: s, norm: s}
	plainSpans(t)
	return t
}

// plainSpans splits a plain text into sentences and sets the one flag
// sentences reads (fGT), out of line so plainText stays inlined and its
// text on the caller's stack.
func plainSpans(t *Text) {
	t.sents = splitSpans(t.norm, nil)
	if strings.IndexByte(t.norm, '>') >= 0 {
		t.flags = fGT
	}
}

// textFeatures is the union of a text's sentence features.
func (a *Text) textFeatures() feature {
	a.sentences()
	return a.allF
}

// sentenceHit quotes sentence se as the evidence of a signal.
func sentenceHit(a *Text, se sentence, detail string) (string, string) {
	return hit(a, se.i, se.j, detail)
}

// has reports whether f has every feature of want.
func (f feature) has(want feature) bool { return f&want == want }

// any reports whether f has some feature of want.
func (f feature) any(want feature) bool { return f&want != 0 }

// evenWord gates evenAsked, which reads what follows "even ".
var evenWord = anySub("even ")

func evenAskedAt(b *needleSet, t string) bool { return evenWord.at(b) && evenAsked(t) }

// evenAsked reports a sentence that holds out against the user's own
// question: "even if the user asks", "even when asked directly".
func evenAsked(t string) bool {
	for off := 0; ; {
		k := strings.Index(t[off:], "even ")
		if k < 0 {
			return false
		}
		off += k + len("even ")
		rest := t[off:]
		switch {
		case strings.HasPrefix(rest, "if "), strings.HasPrefix(rest, "when "), strings.HasPrefix(rest, "though "):
		default:
			continue
		}
		rest = rest[:min(len(rest), 45)]
		if strings.Contains(rest, "ask") || strings.Contains(rest, "wants to know") || strings.Contains(rest, "question") || strings.Contains(rest, "press") {
			return true
		}
	}
}
