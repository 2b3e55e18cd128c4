# Homebrew formula template for DescriptorPin. Not published anywhere yet:
# copy it into a tap (Formula/descriptorpin.rb), replace @VERSION@ and
# @SHA256@ for a release tarball, and check it with
#   brew audit --strict --new descriptorpin && brew install --build-from-source descriptorpin
class Descriptorpin < Formula
  desc "Pin MCP tool descriptors and report rug pulls, shadowing and poisoning"
  homepage "https://github.com/descriptorpin/descriptorpin"
  url "https://github.com/descriptorpin/descriptorpin/archive/refs/tags/v@VERSION@.tar.gz"
  sha256 "@SHA256@"
  license "MIT"
  head "https://github.com/descriptorpin/descriptorpin.git", branch: "main"

  depends_on "go" => :build

  def install
    ldflags = "-s -w -X main.version=#{version} -X main.commit=homebrew"
    system "go", "build", *std_go_args(ldflags:), "./cmd/descriptorpin"
    pkgshare.install "config/example.yaml", "packaging/examples/fleet.yaml"
    doc.install "README.md", "docs/operations.md", "docs/events.md"
  end

  def caveats
    <<~EOS
      To run the watcher at login as a LaunchAgent, with a commented config,
      the agent's output in the state directory and 'service status':
        descriptorpin service install
      ('brew services start descriptorpin' works too, but writes the agent's
      output, which repeats every event unless log.stderr is false, to
      #{var}/log/descriptorpin.log.)
    EOS
  end

  service do
    run [opt_bin/"descriptorpin", "watch"]
    keep_alive true
    log_path var/"log/descriptorpin.log"
    error_log_path var/"log/descriptorpin.log"
  end

  test do
    assert_match "descriptorpin #{version}", shell_output("#{bin}/descriptorpin version")
    (testpath/"inv.json").write '{"servers":[{"name":"a","transport":"http","tools":[{"name":"t","description":"Return the time."}]}]}'
    system bin/"descriptorpin", "pin", testpath/"inv.json", "-o", testpath/"pin.json"
    system bin/"descriptorpin", "scan", testpath/"inv.json", "-p", testpath/"pin.json"
  end
end
