module github.com/descriptorpin/descriptorpin

go 1.26

require (
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	github.com/kardianos/service v1.3.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/rs/zerolog v1.35.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.34.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	gopkg.in/natefinch/lumberjack.v2 v2.2.1 // indirect
)
