"""Sessions: conversations as turns, forks, handoffs, transcripts and vague recall."""
