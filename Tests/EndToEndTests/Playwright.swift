import DeviceSimTestSupport
import Foundation
import Testing

/// Playwright for Python driving Debian's Chromium (never a browser of its own: `playwright install`
/// is not needed): a page at a size, steps done in order (scripts evaluated, clicks, typing, drags,
/// wheel turns, screenshots), the values the scripts return, and the console's errors.
enum Playwright {
    /// One thing to do on the page.
    enum Step {
        /// Open `url` and wait until the report has drawn itself (`body[data-ready]`).
        case open(String)
        /// Evaluate a JavaScript expression; its value (JSON) is one of the results.
        case evaluate(String)
        /// Click the first element matching a CSS selector.
        case click(String)
        /// Type text into the first element matching a CSS selector (replacing what it held).
        case fill(String, String)
        /// Press the mouse in the middle of the first element matching a selector, move it by (dx, dy) pixels, release.
        case drag(String, Double, Double)
        /// Turn the mouse wheel by `dy` over the middle of the first element matching a selector.
        case wheel(String, Double)
        /// A PNG of the page (the whole page when `fullPage`).
        case screenshot(URL, fullPage: Bool)

        var json: [String: Any] {
            switch self {
            case .open(let url): ["kind": "open", "url": url]
            case .evaluate(let script): ["kind": "eval", "script": script]
            case .click(let selector): ["kind": "click", "selector": selector]
            case .fill(let selector, let text): ["kind": "fill", "selector": selector, "text": text]
            case .drag(let selector, let dx, let dy): ["kind": "drag", "selector": selector, "dx": dx, "dy": dy]
            case .wheel(let selector, let dy): ["kind": "wheel", "selector": selector, "dy": dy]
            case .screenshot(let file, let fullPage): ["kind": "screenshot", "path": file.path, "full": fullPage]
            }
        }
    }

    /// Whether the project's Python (`.venv`, else python3) can import playwright (`.ci/install-deps` puts it in `.venv`).
    static let isInstalled: Bool = {
        let process = ProjectPython.process(arguments: ["-c", "import playwright.sync_api"])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Whether the tests that need it run: where it and Chromium are installed, and always on CI,
    /// where a missing one is a failure.
    static var shouldRun: Bool { (Chromium.path != nil && isInstalled) || ProcessInfo.processInfo.environment["CI"] != nil }

    /// Does `steps` on a `width` x `height` page; the values of its `evaluate` steps, in order, and
    /// the console's errors and warnings (and uncaught exceptions).
    static func run(_ steps: [Step], width: Int, height: Int) throws -> (results: [Any], console: [String]) {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("drive.py"), plan = folder.appendingPathComponent("plan.json"), out = folder.appendingPathComponent("out.json")
        try driver.write(to: script, atomically: true, encoding: .utf8)
        let chromium = try #require(Chromium.path, "Debian's chromium is not installed (apt-get install chromium)")
        let planObject: [String: Any] = ["chromium": chromium, "width": width, "height": height, "steps": steps.map(\.json)]
        try JSONSerialization.data(withJSONObject: planObject).write(to: plan)
        let process = ProjectPython.process(arguments: [script.path, plan.path, out.path])
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PlaywrightError.failed(String(decoding: errors, as: UTF8.self))
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any])
        return (object["results"] as? [Any] ?? [], object["console"] as? [String] ?? [])
    }

    enum PlaywrightError: Error, CustomStringConvertible {
        case failed(String)
        var description: String {
            switch self {
            case .failed(let text): "playwright failed: \(text)"
            }
        }
    }

    /// The Python side: reads the plan, does its steps, writes the results.
    static let driver = #"""
    import json, sys
    from playwright.sync_api import sync_playwright

    plan = json.load(open(sys.argv[1]))
    out = {"results": [], "console": []}

    def middle(page, selector):
        page.locator(selector).first.scroll_into_view_if_needed()
        box = page.locator(selector).first.bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=plan["chromium"], args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": plan["width"], "height": plan["height"]})
            page.set_default_timeout(60000)
            page.on("console", lambda m: out["console"].append(m.type + ": " + m.text) if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: out["console"].append("uncaught: " + str(e)))
            for step in plan["steps"]:
                kind = step["kind"]
                if kind == "open":
                    page.goto(step["url"])
                    page.wait_for_selector("body[data-ready=true]", state="attached")
                elif kind == "eval":
                    out["results"].append(page.evaluate(step["script"]))
                elif kind == "click":
                    page.locator(step["selector"]).first.click()
                elif kind == "fill":
                    page.locator(step["selector"]).first.fill(step["text"])
                elif kind == "drag":
                    x, y = middle(page, step["selector"])
                    page.mouse.move(x, y)
                    page.mouse.down()
                    page.mouse.move(x + step["dx"], y + step["dy"], steps=6)
                    page.mouse.up()
                elif kind == "wheel":
                    x, y = middle(page, step["selector"])
                    page.mouse.move(x, y)
                    page.mouse.wheel(0, step["dy"])
                    page.evaluate("new Promise(r => requestAnimationFrame(() => r(0)))")
                elif kind == "screenshot":
                    page.screenshot(path=step["path"], full_page=step["full"])
        finally:
            browser.close()
    json.dump(out, open(sys.argv[2], "w"))
    """#
}
