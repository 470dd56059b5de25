mod parser {
    /// Counts the words.
    pub fn words(input: &str) -> usize {
        input.split(' ').count()
    }

    pub fn parse(input: &str, strict: bool) -> Result<Vec<u32>, String> {
        let mut count: usize = words(input);
        if strict {
            return Err(format!("strict mode: {} words", count));
        }
        unimplemented!("parse {} words", count)
    }
}

pub fn run() -> usize {
    parser::parse("1 2", false).map(|v| v.len()).unwrap_or(0)
}
