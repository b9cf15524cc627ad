return { onCreate = "create" }
