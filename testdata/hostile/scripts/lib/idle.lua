-- A script that does nothing: what attacks attach by the thousand.
return {}
