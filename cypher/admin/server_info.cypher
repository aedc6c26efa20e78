// Purpose: the server's product name, version and edition.
// Params: none
// Returns: name, version, edition
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS version, edition
