import Foundation

extension DogProfile {
    /// Why `text`, typed as a dog's date of birth, is not one (nil when it is a date `yyyy-MM-dd`):
    /// the dog profile dialog refuses it with this reason and stays open.
    ///
    /// ```swift
    /// DogProfile.dateOfBirthProblem("2025-02-29")   // "2025-02-29 is not a date: 2025-02 has 28 days"
    /// DogProfile.dateOfBirthProblem("2020-04-01")   // nil
    /// ```
    public static func dateOfBirthProblem(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard text.count == 10, parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
              (1...12).contains(month), day >= 1 else {
            return "'\(text)' is not a date: write it as year-month-day, such as 2020-04-01"
        }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard day <= days else { return "\(text) is not a date: \(year)-\(String(format: "%02d", month)) has \(days) days" }
        return nil
    }
}
