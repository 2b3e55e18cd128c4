package notify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
)

func finding(id, class, sev, server string) *engine.OpenFinding {
	return &engine.OpenFinding{
		ID: id, FindingID: "f" + id, Class: engine.Class(class), Severity: sv(sev),
		Subject: server + "/read_file", Server: server, Tool: "read_file",
		Summary: class + " " + server + "/read_file: pinned 5d42752ac1f9 scanned 7a0616fba751",
		Details: []string{"  field description changed"}, OpenedAt: "2026-11-30T10:00:05.250Z",
	}
}

// sv is the severity named s; 0 for "" or an unknown name.
func sv(s string) engine.Severity {
	v, _ := engine.ParseSeverity(s)
	return v
}

func opened(f *engine.OpenFinding) engine.Event {
	return engine.Event{Time: time.Date(2026, 11, 30, 10, 0, 5, 250e6, time.UTC), Action: engine.ActionFindingOpened,
		Level: "warn", File: "/home/ada/.cursor/mcp.json", Message: f.Summary, Finding: f}
}

func resolved(f *engine.OpenFinding) engine.Event {
	ev := opened(f)
	ev.Action, ev.Level = engine.ActionFindingResolved, "info"
	return ev
}

func TestAcceptsFiltersBySeverityAndAction(t *testing.T) {
	health := engine.Event{Action: engine.ActionWatchDegraded, Message: "inotify limit"}
	for _, tc := range []struct {
		ev   engine.Event
		min  string
		want bool
	}{
		{opened(finding("a", "MUTATION", "high", "s")), "high", true},
		{opened(finding("a", "MUTATION", "high", "s")), "critical", false},
		{opened(finding("a", "REMOVED", "low", "s")), "", false}, // "" is medium
		{opened(finding("a", "REMOVED", "low", "s")), "low", true},
		{resolved(finding("a", "ADDED", "medium", "s")), "medium", true},
		{opened(finding("a", "FUTURE", "", "s")), "critical", true}, // unknown severity is never filtered away
		{health, "medium", true},
		{health, "high", false},
		{engine.Event{Action: engine.ActionWatchRecovered}, "low", true},
		{engine.Event{Action: engine.ActionDaemonStarted}, "low", false},
		{engine.Event{Action: engine.ActionScanFailed}, "low", false},
		{engine.Event{Action: ActionNotifyDegraded}, "low", false},
		{engine.Event{Action: engine.ActionFindingOpened}, "low", false}, // no finding
	} {
		if got := Accepts(tc.ev, sv(tc.min)); got != tc.want {
			t.Errorf("Accepts(%s %v, %q) = %v, want %v", tc.ev.Action, tc.ev.Finding != nil, tc.min, got, tc.want)
		}
	}
}

func TestMessageIDIsStableAndDistinct(t *testing.T) {
	a, b := finding("a1", "MUTATION", "high", "files"), finding("b2", "MUTATION", "high", "files")
	if first, second := MessageID(opened(a)), MessageID(opened(a)); first != second {
		t.Error("the same event gave two ids")
	}
	again := *a
	again.OpenedAt = "2026-12-01T00:00:00.000Z" // the same finding, opened again later
	ids := map[string]string{}
	for name, ev := range map[string]engine.Event{
		"a opened": opened(a), "b opened": opened(b), "a resolved": resolved(a), "a reopened": opened(&again),
		"health": {Action: engine.ActionWatchDegraded, File: "/x", Time: time.Unix(1, 0)},
	} {
		id := MessageID(ev)
		if !strings.HasPrefix(id, "msg_") || len(id) != 4+32 {
			t.Errorf("%s: id %q", name, id)
		}
		if other, dup := ids[id]; dup {
			t.Errorf("%s and %s share the id %s", name, other, id)
		}
		ids[id] = name
	}
}

func TestStandardBodyIsTypeTimestampData(t *testing.T) {
	m := NewMessage(opened(finding("e204adae3b2ad21e", "MUTATION", "high", "notes-local")), "ada-laptop")
	body, err := Render(FormatStandard, m)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got["type"] != "finding.opened" || got["timestamp"] != "2026-11-30T10:00:05.250Z" {
		t.Fatalf("body %s", body)
	}
	data := got["data"].(map[string]any)
	for k, want := range map[string]any{
		"id": "e204adae3b2ad21e", "class": "MUTATION", "severity": "high", "server": "notes-local",
		"action": "finding-opened", "host": "ada-laptop", "file": "/home/ada/.cursor/mcp.json",
		"opened_at": "2026-11-30T10:00:05.250Z",
	} {
		if data[k] != want {
			t.Errorf("data.%s = %v, want %v", k, data[k], want)
		}
	}
	if d := data["details"].([]any); d[0] != "field description changed" {
		t.Errorf("details %v", d)
	}
	// The id travels in the header only.
	if strings.Contains(string(body), m.ID) {
		t.Error("the body carries the webhook-id")
	}
	// The same message renders the same bytes: a retry sends the same body.
	again, _ := Render(FormatStandard, m)
	if string(again) != string(body) {
		t.Error("rendering is not deterministic")
	}
}

// hostile is descriptor text that tries every trick a chat message or a
// desktop could fall for.
const hostile = "<!channel> *bold* <https://evil.test|click> [link](https://evil.test) &amp; \x1b[2J\u202eexe.txt\u200b" +
	"\r\nsecond line\U000E0041 :skull:"

func hostileFinding() *engine.OpenFinding {
	f := finding("h", "POISON", "critical", "evil<b>srv</b>")
	f.Summary = hostile
	f.Subject, f.Tool = hostile, hostile
	f.Details = []string{hostile, strings.Repeat("x", 10000)}
	return f
}

func TestChatBodiesCarryDescriptorTextInertly(t *testing.T) {
	m := NewMessage(opened(hostileFinding()), "host")
	for _, format := range []string{FormatSlack, FormatTeams, FormatStandard} {
		body, err := Render(format, m)
		if err != nil {
			t.Fatal(err)
		}
		var anyBody any
		if err := json.Unmarshal(body, &anyBody); err != nil {
			t.Fatalf("%s: not JSON: %v", format, err)
		}
		var strs []string
		collectStrings(anyBody, &strs)
		for _, s := range strs {
			for _, raw := range []string{"\x1b", "\u202e", "\u200b", "\r", "\U000E0041"} {
				if strings.Contains(s, raw) {
					t.Errorf("%s: a string holds the raw %q: %q", format, raw, s)
				}
			}
			// The chat formats bound every text; the standard body is
			// the finding's data as the event log has it.
			if format != FormatStandard && len([]rune(s)) > 3000 {
				t.Errorf("%s: a string of %d runes", format, len([]rune(s)))
			}
		}
	}

	slack := slackBody(m)
	if strings.Contains(slack.Text, "<!channel>") || strings.Contains(slack.Text, "<https://") || !strings.Contains(slack.Text, "&lt;!channel&gt;") {
		t.Errorf("slack text is not mrkdwn-escaped: %q", slack.Text)
	}
	if !strings.Contains(slack.Text, "&amp;amp;") {
		t.Errorf("slack text: & not escaped: %q", slack.Text)
	}
	for _, b := range slack.Blocks {
		for _, txt := range append(append([]slackText{}, b.Fields...), b.Elements...) {
			if txt.Type != "plain_text" || txt.Emoji == nil || *txt.Emoji {
				t.Errorf("slack %s block has a %s text (emoji %v)", b.Type, txt.Type, txt.Emoji)
			}
		}
		if b.Text != nil && (b.Text.Type != "plain_text" || *b.Text.Emoji) {
			t.Errorf("slack %s block text is %s", b.Type, b.Text.Type)
		}
	}
	if slack.Blocks[0].Type != "header" || len([]rune(slack.Blocks[0].Text.Text)) > 150 {
		t.Errorf("slack header %+v", slack.Blocks[0])
	}

	teams := teamsBody(m)
	card := teams.Attachments[0]
	if teams.Type != "message" || card.ContentType != "application/vnd.microsoft.card.adaptive" || card.Content.Type != "AdaptiveCard" {
		t.Fatalf("teams envelope %+v", teams)
	}
	for _, el := range card.Content.Body {
		if el.Type != "RichTextBlock" {
			t.Errorf("teams element %s: only RichTextBlock (never Markdown) carries text", el.Type)
		}
		for _, r := range el.Inlines {
			if r.Type != "TextRun" {
				t.Errorf("teams inline %s", r.Type)
			}
		}
	}
}

func collectStrings(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			collectStrings(e, out)
		}
	case map[string]any:
		for _, e := range x {
			collectStrings(e, out)
		}
	}
}

func TestRenderRejectsAnUnknownFormat(t *testing.T) {
	if _, err := Render("xml", Message{}); err == nil {
		t.Error("Render(xml) = nil error")
	}
}
