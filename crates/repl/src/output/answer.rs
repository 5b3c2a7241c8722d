//! One answer of a subcommand: its JSON document and its text for people.

use serde::Serialize;

use super::{error::CliError, write::print};

/// One answer: the JSON document (serialized) and the text for people.
pub struct Answer {
    pub json: String,
    pub text: String,
}

impl Answer {
    /// The answer whose JSON is `doc` and whose text is `text`.
    pub fn new(doc: &impl Serialize, text: String) -> Result<Answer, CliError> {
        Ok(Answer {
            json: to_json(doc)?,
            text,
        })
    }

    /// Prints the answer on standard output: the JSON document on a line of its own with `json`,
    /// else the text as it is.
    pub fn print(&self, json: bool) -> Result<(), CliError> {
        if json {
            print(&format!("{}\n", self.json))
        } else {
            print(&self.text)
        }
    }
}

/// `doc` as one line of JSON.
pub fn to_json(doc: &impl Serialize) -> Result<String, CliError> {
    serde_json::to_string(doc).map_err(|e| CliError::Internal(format!("cannot write JSON: {e}")))
}
