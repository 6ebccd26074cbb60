//! The answer parsers (the emit_answer tool input, and the wrapped shapes: OpenAI and Anthropic
//! tool calls, JSON in text): no panic on any input; an error is one message.
#![no_main]

use citestore::cite::answer::parse_answer;
use citestore::cite::wrapped::parse_wrapped_answer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|json: &str| {
    if let Err(e) = parse_answer(json) {
        assert!(!e.to_string().is_empty());
    }
    if let Err(e) = parse_wrapped_answer(json) {
        assert!(!e.to_string().is_empty());
    }
});
