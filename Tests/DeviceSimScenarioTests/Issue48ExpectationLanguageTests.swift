import DeviceSim
@testable import DeviceSimScenario
import Foundation
import Testing

/// Issue 48, items 10 and 11: `any-of:` (either-or outcomes) and rows checked without predicting ids
/// (`contains:`, `count:`, order-free rows, a column subset, one database compared with another or
/// with the server): what passes, what fails and what validate refuses at its line and column.
@Suite struct Issue48ExpectationLanguageTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    /// A dog walker who signs up at 4s (the server registers her at 4s200ms).
    func signUp(_ expect: String) -> String {
        """
        name: issue 48
        devices:
          - { id: walker, at: [69.6492, 18.9558], app: { name: dog-walk } }
        timeline:
          - { at: 0s, do: start-app }
          - { at: 0s, do: answer, prompt: sign-in-options, choice: sign-up, after: 1s }
          - { at: 4s, do: sign-up, email: dora@example.org }
        expect:
        \(expect)
        """
    }

    func outcomes(_ text: String) throws -> [ExpectationOutcome] {
        ScenarioRunner().run(try ScenarioParser.parse(text, file: "s.yaml")).outcomes
    }

    func error(_ text: String) throws -> String {
        try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "s.yaml") }.description
    }

    @Test func anyOfPassesWhenOneAlternativeHoldsAndFailsNamingEachWhenNoneDoes() throws {
        let one = try outcomes(signUp("""
              - any-of:
                  - { event: sign-up.failed, count: 1 }
                  - { event: sign-up.succeeded, where: { email: dora@example.org }, within: [4s, 5s] }
            """))
        #expect(one.count == 1)
        #expect(one[0].passed, "\(one[0].observed)")
        #expect(one[0].observed.hasPrefix("(b) holds"), "\(one[0].observed)")
        let none = try outcomes(signUp("""
              - any-of:
                  - { event: sign-up.failed, count: 1 }
                  - { event: sign-up.succeeded, within: [10s, 20s] }
            """))
        #expect(!none[0].passed)
        #expect(none[0].observed.hasPrefix("none holds: (a) 0 found"), "\(none[0].observed)")
        #expect(none[0].observed.contains("(b) 0 found"), "\(none[0].observed)")
    }

    @Test func anyOfMisuseIsRefusedAtItsLineAndColumn() throws {
        #expect(try error(signUp("  - any-of: [{ event: sign-up.failed }]")).hasPrefix("s.yaml:8:13: any-of needs two expectations or more"))
        #expect(try error(signUp("  - any-of: [{ event: sign-up.failed }, { any-of: [] }]")).hasPrefix("s.yaml:8:40: an any-of inside an any-of"))
        #expect(try error(signUp("  - { any-of: [{ event: sign-up.failed }, { event: app.started }], device: walker }")).contains("unknown key 'device' in any-of expectation"))
        let capture = try error(signUp("  - any-of: [{ event: sign-up.succeeded, capture: { email: e } }, { event: app.started }]"))
        #expect(capture.hasPrefix("s.yaml:8:52: an alternative of any-of cannot capture"), "\(capture)")
    }
}
