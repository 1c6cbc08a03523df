import DeviceSimHAL

/// The dog profile dialog: adding the first dog friend (5-A) and editing the dog profile.
extension DogWalkApp {
    /// The user selects the "edit dog profile" menu item: the dialog shows with the dog's profile.
    public func editDogProfile() {
        guard let dog = selectedDog else {
            return ignored("edit-dog-profile", service == nil ? "no dog friend is shown; start the service first" : "no dog friend is shown yet: the service waits for a location fix and a dog friend")
        }
        run { await $0.dogProfileDialog(editing: dog) }
    }

    /// The user fills attributes of the dialog's profile (nil: left as it is) and empties the ones in
    /// `clearing` (every attribute is optional: a sex or a date of birth given by mistake can be taken
    /// back).
    public func fillDogProfile(name: String?, sex: DogProfile.Sex?, dateOfBirth: String?, clearing: Set<DogProfile.Attribute> = []) {
        guard var draft = dogProfileDraft else { return ignored("fill-dog-profile", "the dog profile dialog is not shown") }
        if clearing.contains(.name) { draft.name = nil }
        if clearing.contains(.sex) { draft.sex = nil }
        if clearing.contains(.dateOfBirth) { draft.dateOfBirth = nil }
        // A field left empty is an attribute not given (every attribute is optional).
        if let name { draft.name = name.isEmpty ? nil : name }
        if let sex { draft.sex = sex }
        if let dateOfBirth { draft.dateOfBirth = dateOfBirth.isEmpty ? nil : dateOfBirth }
        dogProfileDraft = draft
        device.record("dog-profile.filled", Self.profileFields(draft))
    }

    /// The user confirms (submits) the dialog.
    public func confirmDogProfile() {
        submit(.dogProfileConfirmed, to: .dogProfile, action: "confirm-dog-profile")
    }

    /// The user leaves the dog profile dialog of an edit with its cancel button: the dog keeps its
    /// profile and the dialog closes. Adding the first dog friend (5-A) has no cancel: the app cannot
    /// go on without a dog friend, and every attribute is optional (confirm it empty), so the tap is
    /// ignored with that reason.
    public func cancelDogProfile() {
        guard let draft = dogProfileDraft, waitingForms[.dogProfile] != nil else { return ignored("cancel-dog-profile", "the dog profile dialog is not shown") }
        guard draft.id != nil else {
            return ignored("cancel-dog-profile", "the first dog friend's dialog has no cancel: every attribute is optional, so confirm it (empty if you like) to go on")
        }
        submit(.dogProfileCancelled, to: .dogProfile, action: "cancel-dog-profile")
    }

    /// Adding the first dog friend; false when the app stopped first.
    func addFirstDog() async -> Bool {
        await dogProfileDialog(editing: nil)
    }

    /// Shows the dialog (empty to add a dog, or with `dog` to edit it), waits for the confirmation and
    /// saves; a failed save keeps the dialog open with the reason, and the user may confirm again.
    @discardableResult
    private func dogProfileDialog(editing dog: DogProfile?) async -> Bool {
        dogProfileDraft = dog ?? DogProfile()
        let mode = dog == nil ? "add" : "edit"
        device.record("dog-profile.dialog-shown", [("mode", .string(mode)), ("asks", .string("name|sex|date-of-birth"))] + Self.profileFields(dogProfileDraft!))
        while !isStopped {
            let input = await waitFor(.dogProfile)
            if case .dogProfileCancelled? = input, dog != nil {
                dogProfileDraft = nil
                device.record("dog-profile.dialog-closed", [("mode", .string("edit")), ("reason", .string("cancelled"))])
                return true
            }
            guard case .dogProfileConfirmed? = input, let draft = dogProfileDraft, let store = store else { return false }
            // What the user typed as the date of birth is checked here: a date that is not one keeps
            // the dialog open with the reason.
            if let typed = draft.dateOfBirth, let problem = DogProfile.dateOfBirthProblem(typed) {
                device.record("dog-profile.refused", [("reason", .string(problem))] + Self.profileFields(draft))
                continue
            }
            do {
                if dog == nil {
                    var new = draft
                    new.uid = newUID("d")
                    let saved = try store.addDog(new)
                    userData?.dogs.append(saved)
                    device.record("dog-profile.added", Self.profileFields(saved))
                } else if let dog {
                    try store.updateDog(draft, edits: DogProfileEdit.between(dog, draft))
                    if let index = userData?.dogs.firstIndex(where: { $0.id == draft.id }) { userData?.dogs[index] = draft }
                    if selectedDog?.id == draft.id { selectedDog = draft }
                    device.record("dog-profile.updated", Self.profileFields(draft))
                }
            } catch {
                guard !isStopped else { return false }
                device.record("dog-profile.save-failed", [("reason", .string(error.description))])
                continue
            }
            device.record("user-data.saved", [("what", .string("dog profile"))])
            dogProfileDraft = nil
            device.record("dog-profile.dialog-closed")
            requestSync()
            return true
        }
        return false
    }

    static func profileFields(_ dog: DogProfile) -> [(key: String, value: TraceValue)] {
        [("id", dog.id.map { .int(Int($0)) } ?? .null), ("name", text(dog.name)), ("sex", text(dog.sex?.rawValue)), ("date-of-birth", text(dog.dateOfBirth))]
    }
}
