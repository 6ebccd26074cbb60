-- 0012: cited answers from every provider (issue 28). Cohere, Gemini, OpenAI's Responses and
-- the AI SDK cite stretches of the *answer*, not quotes of the source: each claim keeps where it
-- stands in the answer (chars, converted at import from the provider's bytes or UTF-16 code
-- units; the answer's text is in the answer's parsed body). A provider that names a chunk
-- without quoting it gives `review` evidence whose quote stays empty; the sentence citestore
-- proposes for a person to confirm is kept beside it as a proposal, never as a located quote.
-- NULL on rows from before 0012, and on answers that are not provider imports.
ALTER TABLE claims ADD COLUMN answer_start INTEGER;
ALTER TABLE claims ADD COLUMN answer_end INTEGER;
ALTER TABLE evidence ADD COLUMN proposal_start INTEGER;  -- chars into the cited revision
ALTER TABLE evidence ADD COLUMN proposal_end INTEGER;
ALTER TABLE evidence ADD COLUMN proposal_text TEXT;
ALTER TABLE evidence ADD COLUMN proposal_score REAL;     -- share of the claim's words, 0-100
