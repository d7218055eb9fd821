"""The mecha attack rules' force editor: units and their weapons, typed in by the players."""
