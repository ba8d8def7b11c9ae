import Foundation

/// The backend's state: one account, and the credentials it has handed out. An actor, as requests
/// arrive concurrently.
actor Accounts {
    /// The one account (email and password) that can sign in.
    static let email = "ada@example.com"
    static let password = "correct horse battery staple"

    /// Session ids (the `session` cookie), remember-me tokens (the `remember_me` cookie) and bearer
    /// tokens, each naming the account it signs in.
    private var sessions: [String: String] = [:]
    private var rememberTokens: [String: String] = [:]
    private var bearerTokens: [String: String] = [:]

    /// The credentials of a sign-in.
    struct Grant {
        let session: String
        let rememberToken: String
        let bearerToken: String
    }

    /// Signs `email` in when `password` is its password.
    func signIn(email: String, password: String) -> Grant? {
        guard email == Accounts.email, password == Accounts.password else { return nil }
        let grant = Grant(session: Self.newToken(), rememberToken: Self.newToken(), bearerToken: Self.newToken())
        sessions[grant.session] = email
        rememberTokens[grant.rememberToken] = email
        bearerTokens[grant.bearerToken] = email
        return grant
    }

    /// A new session for the account a remember-me token signs in.
    func resume(rememberToken: String) -> (email: String, session: String)? {
        guard let email = rememberTokens[rememberToken] else { return nil }
        let session = Self.newToken()
        sessions[session] = email
        return (email, session)
    }

    func account(session: String) -> String? { sessions[session] }

    /// Replaces the session `session` with a new one of the same account (what a server does to defeat
    /// session fixation); the old one stops working. Nil when `session` names no account.
    func rotate(session: String) -> String? {
        guard let email = sessions.removeValue(forKey: session) else { return nil }
        let rotated = Self.newToken()
        sessions[rotated] = email
        return rotated
    }
    func account(bearerToken: String) -> String? { bearerTokens[bearerToken] }

    /// Invalidates every credential of `email`.
    func signOut(_ email: String) {
        sessions = sessions.filter { $0.value != email }
        rememberTokens = rememberTokens.filter { $0.value != email }
        bearerTokens = bearerTokens.filter { $0.value != email }
    }

    private static func newToken() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
