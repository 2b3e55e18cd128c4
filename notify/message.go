package notify

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Webhook body formats.
const (
	FormatStandard = "standard" // Standard Webhooks: {type, timestamp, data}, signed
	FormatSlack    = "slack"    // Slack incoming webhook: text + blocks
	FormatTeams    = "teams"    // Teams Workflows: a message with an Adaptive Card
)

// Message types (the Standard Webhooks "type").
const (
	TypeFindingOpened   = "finding.opened"
	TypeFindingResolved = "finding.resolved"
	TypeWatchDegraded   = "watch.degraded"
	TypeWatchRecovered  = "watch.recovered"
	TypeTest            = "notification.test"
)

// Message is one webhook delivery before it is rendered in an endpoint's
// format: what is spooled, and what every attempt is rendered from (so a
// retry sends the same body).
type Message struct {
	// ID is the webhook-id: the idempotency key, the same on every
	// attempt and after a restart.
	ID        string `json:"id"`
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"` // the event's time, RFC 3339 UTC
	Data      Data   `json:"data"`
}

// Data is a message's "data": the finding's fields (for finding events)
// followed by the event's context. Every string is sanitised: control,
// bidi and invisible characters are shown as escapes.
type Data struct {
	*engine.OpenFinding

	Action  string `json:"action"`            // the event log's event.action
	File    string `json:"file,omitempty"`    // the watched file the event is about
	Host    string `json:"host,omitempty"`    // the host the service runs on
	Message string `json:"message,omitempty"` // the event log's message
	Error   string `json:"error,omitempty"`   // watch-degraded: what went wrong
}

// MessageID is the webhook-id of ev: "msg_" and 32 hex digits of a
// SHA-256 over the action and the finding's id and opening time (or, for
// other events, the file and the event time). The same event gives the
// same id every time; two findings, or the opening and the resolution of
// one finding, or a finding that opens again later, give different ids.
func MessageID(ev engine.Event) string {
	h := sha256.New()
	if f := ev.Finding; f != nil {
		fmt.Fprintf(h, "%s\x00%s\x00%s", ev.Action, f.ID, f.OpenedAt)
	} else {
		fmt.Fprintf(h, "%s\x00%s\x00%d", ev.Action, ev.File, ev.Time.UnixNano())
	}
	return "msg_" + hex.EncodeToString(h.Sum(nil)[:16])
}

// typeOf maps an event action to a message type; "" for actions that are
// not delivered.
func typeOf(action string) string {
	switch action {
	case engine.ActionFindingOpened:
		return TypeFindingOpened
	case engine.ActionFindingResolved:
		return TypeFindingResolved
	case engine.ActionWatchDegraded:
		return TypeWatchDegraded
	case engine.ActionWatchRecovered:
		return TypeWatchRecovered
	}
	return ""
}

// NewMessage builds the delivery for ev (one of the actions Accepts lets
// through). host is the host name put in the data.
func NewMessage(ev engine.Event, host string) Message {
	d := Data{
		Action: sanitize.Text(ev.Action), File: sanitize.Text(ev.File), Host: sanitize.Text(host),
		Message: sanitize.Text(ev.Message), Error: sanitize.Text(ev.Error),
	}
	if ev.Finding != nil {
		d.OpenFinding = sanitizeFinding(ev.Finding)
	}
	typ := typeOf(ev.Action)
	if typ == "" {
		typ = "event." + sanitize.Text(ev.Action)
	}
	return Message{ID: MessageID(ev), Type: typ, Timestamp: stampRFC3339(ev.Time), Data: d}
}

// TestMessage is the delivery `descriptorpin notify test` sends: a fresh
// id every time.
func TestMessage(now time.Time, host string) Message {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return Message{
		ID: "msg_test_" + hex.EncodeToString(b[:]), Type: TypeTest, Timestamp: stampRFC3339(now),
		Data: Data{
			Action: "notification-test", Host: sanitize.Text(host),
			Message: "DescriptorPin test notification: this endpoint is configured correctly",
		},
	}
}

func stampRFC3339(t time.Time) string { return engine.Stamp(t) }

func sanitizeFinding(f *engine.OpenFinding) *engine.OpenFinding {
	c := *f
	c.ID, c.FindingID = sanitize.Text(c.ID), sanitize.Text(c.FindingID)
	c.Class = engine.Class(sanitize.Text(string(c.Class)))
	c.Subject, c.Server, c.Tool = sanitize.Text(c.Subject), sanitize.Text(c.Server), sanitize.Text(c.Tool)
	c.Rule, c.Summary = sanitize.Text(c.Rule), sanitize.Text(c.Summary)
	c.Details = sanitize.Texts(c.Details)
	for i := range c.Details {
		c.Details[i] = strings.TrimSpace(c.Details[i])
	}
	c.PinnedDigest, c.ScannedDigest = sanitize.Text(c.PinnedDigest), sanitize.Text(c.ScannedDigest)
	c.Signals = sanitize.Texts(c.Signals)
	c.OpenedAt = sanitize.Text(c.OpenedAt)
	return &c
}

// Render returns the body of m in format (FormatStandard when "").
func Render(format string, m Message) ([]byte, error) {
	switch format {
	case "", FormatStandard:
		return json.Marshal(standardBody{Type: m.Type, Timestamp: m.Timestamp, Data: m.Data})
	case FormatSlack:
		return json.Marshal(slackBody(m))
	case FormatTeams:
		return json.Marshal(teamsBody(m))
	}
	return nil, fmt.Errorf("unknown webhook format %q: want standard, slack or teams", sanitize.Text(format))
}

// standardBody is the Standard Webhooks payload: the id travels in the
// webhook-id header, not in the body.
type standardBody struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      Data   `json:"data"`
}

// --- the words both chat formats use ---

// headline is a message's title: "New finding: MUTATION (high)".
func headline(m Message) string {
	f := m.Data.OpenFinding
	switch m.Type {
	case TypeFindingOpened:
		if f != nil {
			return fmt.Sprintf("New finding: %s (%s)", oneLine(string(f.Class), 40), oneLine(f.Severity.String(), 20))
		}
		return "New finding"
	case TypeFindingResolved:
		if f != nil {
			return fmt.Sprintf("Finding resolved: %s (%s)", oneLine(string(f.Class), 40), oneLine(f.Severity.String(), 20))
		}
		return "Finding resolved"
	case TypeWatchDegraded:
		return "File watching degraded"
	case TypeWatchRecovered:
		return "File watching recovered"
	case TypeTest:
		return "Test notification"
	}
	return "DescriptorPin event"
}

// fact is one labelled value of a chat message.
type fact struct{ label, value string }

// facts lists what a chat message shows under its summary, every value
// sanitised and bounded.
func facts(m Message) []fact {
	var out []fact
	add := func(label, value string, max int) {
		if value != "" {
			out = append(out, fact{label, oneLine(value, max)})
		}
	}
	if f := m.Data.OpenFinding; f != nil {
		add("Subject", f.Subject, 200)
		add("Server", f.Server, 120)
		add("Tool", f.Tool, 120)
		add("Severity", f.Severity.String(), 20)
		add("Rule", f.Rule, 80)
		add("Finding", f.ID, 40)
		add("Opened", f.OpenedAt, 40)
	}
	add("File", m.Data.File, 300)
	add("Host", m.Data.Host, 120)
	return out
}

// summaryLine is the one line of text under the title.
func summaryLine(m Message) string {
	if f := m.Data.OpenFinding; f != nil && f.Summary != "" {
		return oneLine(f.Summary, 500)
	}
	if m.Data.Error != "" {
		return oneLine(m.Data.Message, 400) + " (" + oneLine(m.Data.Error, 400) + ")"
	}
	return oneLine(m.Data.Message, 500)
}

// detailLines are a finding's detail lines, bounded in number and length.
func detailLines(m Message) []string {
	f := m.Data.OpenFinding
	if f == nil {
		return nil
	}
	var out []string
	for i, d := range f.Details {
		if i == 10 {
			out = append(out, fmt.Sprintf("… and %d more", len(f.Details)-i))
			break
		}
		out = append(out, oneLine(d, 300))
	}
	return out
}

// --- Slack ---

// Slack incoming webhooks take {"text", "blocks"}. Descriptor text only
// ever goes into plain_text objects (with emoji shortcodes off), so it
// cannot mention @channel, make a link or format; the text fallback,
// which Slack reads as mrkdwn, has &, < and > escaped as Slack requires.

type slackText struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Emoji *bool  `json:"emoji,omitempty"`
}

type slackBlock struct {
	Type     string      `json:"type"`
	Text     *slackText  `json:"text,omitempty"`
	Fields   []slackText `json:"fields,omitempty"`
	Elements []slackText `json:"elements,omitempty"`
}

type slackMessage struct {
	Text   string       `json:"text"`
	Blocks []slackBlock `json:"blocks"`
}

func plain(s string, max int) slackText {
	no := false
	return slackText{Type: "plain_text", Text: clip(s, max), Emoji: &no}
}

func slackBody(m Message) slackMessage {
	title := "DescriptorPin: " + headline(m)
	summary := summaryLine(m)
	msg := slackMessage{Text: slackEscape(clip(title+": "+summary, 3000))}
	msg.Blocks = append(msg.Blocks, slackBlock{Type: "header", Text: ptr(plain(title, 150))})
	if summary != "" {
		msg.Blocks = append(msg.Blocks, slackBlock{Type: "section", Text: ptr(plain(summary, 3000))})
	}
	var fields []slackText
	for _, f := range facts(m) {
		if len(fields) == 10 { // Slack's limit per section
			break
		}
		fields = append(fields, plain(f.label+": "+f.value, 2000))
	}
	if len(fields) > 0 {
		msg.Blocks = append(msg.Blocks, slackBlock{Type: "section", Fields: fields})
	}
	if d := detailLines(m); len(d) > 0 {
		msg.Blocks = append(msg.Blocks, slackBlock{Type: "section", Text: ptr(plain(strings.Join(d, "\n"), 3000))})
	}
	msg.Blocks = append(msg.Blocks, slackBlock{Type: "context", Elements: []slackText{plain("descriptorpin · "+m.Type+" · "+m.ID, 300)}})
	return msg
}

// slackEscape escapes the three characters Slack's mrkdwn gives meaning
// to in control sequences (<!channel>, <url|label>).
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func ptr[T any](v T) *T { return &v }

// --- Teams ---

// Teams Workflows ("Post to a channel when a webhook request is
// received") take a message whose attachment is an Adaptive Card. All
// text goes into RichTextBlock TextRuns, which Adaptive Cards never read
// as Markdown, so descriptor text cannot format or link.

type teamsRun struct {
	Type   string `json:"type"`
	Text   string `json:"text"`
	Weight string `json:"weight,omitempty"`
	Size   string `json:"size,omitempty"`
	Color  string `json:"color,omitempty"`
}

type teamsElement struct {
	Type    string     `json:"type"`
	Inlines []teamsRun `json:"inlines"`
}

type teamsCard struct {
	Schema  string         `json:"$schema"`
	Type    string         `json:"type"`
	Version string         `json:"version"`
	Body    []teamsElement `json:"body"`
}

type teamsAttachment struct {
	ContentType string    `json:"contentType"`
	ContentURL  *string   `json:"contentUrl"`
	Content     teamsCard `json:"content"`
}

type teamsMessage struct {
	Type        string            `json:"type"`
	Attachments []teamsAttachment `json:"attachments"`
}

func textRun(text string) teamsRun { return teamsRun{Type: "TextRun", Text: text} }

func teamsBody(m Message) teamsMessage {
	title := textRun(clip("DescriptorPin: "+headline(m), 200))
	title.Weight, title.Size = "Bolder", "Medium"
	if m.Type == TypeFindingOpened || m.Type == TypeWatchDegraded {
		title.Color = "Attention"
	}
	body := []teamsElement{{Type: "RichTextBlock", Inlines: []teamsRun{title}}}
	if s := summaryLine(m); s != "" {
		body = append(body, teamsElement{Type: "RichTextBlock", Inlines: []teamsRun{textRun(s)}})
	}
	for _, f := range facts(m) {
		label := textRun(f.label + ": ")
		label.Weight = "Bolder"
		body = append(body, teamsElement{Type: "RichTextBlock", Inlines: []teamsRun{label, textRun(f.value)}})
	}
	if d := detailLines(m); len(d) > 0 {
		body = append(body, teamsElement{Type: "RichTextBlock", Inlines: []teamsRun{textRun(strings.Join(d, "\n"))}})
	}
	foot := textRun("descriptorpin · " + m.Type + " · " + m.ID)
	foot.Size, foot.Color = "Small", "Accent"
	body = append(body, teamsElement{Type: "RichTextBlock", Inlines: []teamsRun{foot}})
	return teamsMessage{
		Type: "message",
		Attachments: []teamsAttachment{{
			ContentType: "application/vnd.microsoft.card.adaptive",
			Content: teamsCard{
				Schema: "http://adaptivecards.io/schemas/adaptive-card.json", Type: "AdaptiveCard",
				Version: "1.4", Body: body,
			},
		}},
	}
}
